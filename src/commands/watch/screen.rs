//! Showing each sample: a JSON object per sample (`--output json`), a line per change off a
//! terminal, or on a terminal a frame redrawn in place (lines again when it is too narrow).

use std::io::IsTerminal;

use model::wait::Wait;
use streams_group::render::out::{self, Format, WriteError};
use streams_group::render::watch::{self as render, Frame};
use streams_group::time;
use streams_group::watch::{Change, Sample, WatchLine, Watcher};

use super::View;

/// How many earlier changes the frame keeps for its log.
const RECENT: usize = 200;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Json,
    Lines,
    Screen,
}

pub struct Show<'a> {
    mode: Mode,
    title: String,
    view: View<'a>,
    watcher: Watcher,
    /// Changes before the latest sample, with their time.
    recent: Vec<(i64, Change)>,
    /// The latest sample's changes and time: the frame marks them, and a redraw while a
    /// sample is late shows them again.
    latest: (i64, Vec<Change>),
    taken: u64,
    /// The view table of the last sample that described the cluster.
    table: String,
    drawn: bool,
    /// On a terminal, but showing lines: it is too narrow for the frame.
    narrow: bool,
}

impl<'a> Show<'a> {
    pub fn new(format: Format, title: String, view: View<'a>) -> Self {
        let mode = match format {
            Format::Json => Mode::Json,
            Format::Table if std::io::stdout().is_terminal() => Mode::Screen,
            Format::Table => Mode::Lines,
        };
        Show {
            mode,
            title,
            view,
            watcher: Watcher::new(),
            recent: Vec::new(),
            latest: (0, Vec::new()),
            taken: 0,
            table: String::new(),
            drawn: false,
            narrow: false,
        }
    }

    pub fn sample(&mut self, s: Sample) -> Result<(), WriteError> {
        self.taken += 1;
        let (at, before) = std::mem::take(&mut self.latest);
        self.recent.extend(before.into_iter().map(|c| (at, c)));
        if self.recent.len() > RECENT {
            self.recent.drain(..self.recent.len() - RECENT);
        }
        let changes = self.watcher.observe(&s);
        self.latest = (s.sampled_at_ms, changes.clone());
        let text = match self.mode {
            Mode::Json => render::json_line(&WatchLine {
                sample: s.clone(),
                changes,
            }),
            Mode::Lines => self.lines(&s, &changes),
            Mode::Screen => self.screen(&s),
        };
        out::write_stdout(&text)
    }

    /// The sample in flight is late, waiting for `wait` (at `now_ms`): said on stderr, as a
    /// failed sample is, or on the frame's status line while the frame is shown.
    pub fn waiting(&mut self, wait: &Wait, now_ms: i64) {
        let line = render::waiting_line(wait, now_ms);
        if self.mode != Mode::Screen || !self.drawn {
            out::note(&line);
            return;
        }
        if let Some(text) = self.draw(Some(&line)) {
            let _ = out::write_stdout(&format!("\x1b[?25l\x1b[H{text}\x1b[J"));
        }
    }

    /// The cursor back, after the last frame.
    pub fn finish(&mut self) {
        if self.drawn {
            let _ = out::write_stdout("\x1b[?25h");
        }
    }

    fn lines(&self, s: &Sample, changes: &[Change]) -> String {
        if self.taken == 1 {
            render::start_lines(s)
        } else {
            render::change_lines(s, changes)
        }
    }

    /// The frame of the latest sample, with `waiting` as its status line; `None` when the
    /// terminal is too narrow for it.
    fn draw(&self, waiting: Option<&str>) -> Option<String> {
        let (width, height) = terminal_size::terminal_size()
            .map_or((80, 24), |(w, h)| (usize::from(w.0), usize::from(h.0)));
        let title = format!(
            "{}  (sample {} at {})",
            self.title,
            self.taken,
            time::time_of_day_s(self.latest.0)
        );
        render::frame(&Frame {
            title: &title,
            watcher: &self.watcher,
            changes: &self.latest.1,
            recent: &self.recent,
            table: &self.table,
            mark_by: self.view.mark_by,
            width,
            height,
            waiting,
        })
    }

    fn screen(&mut self, s: &Sample) -> String {
        if s.is_reachable() {
            self.table = (self.view.table)(&s.snapshot);
        }
        match self.draw(None) {
            Some(text) => {
                let clear = if self.narrow || !self.drawn {
                    "\x1b[2J"
                } else {
                    ""
                };
                self.drawn = true;
                self.narrow = false;
                format!("\x1b[?25l{clear}\x1b[H{text}\x1b[J")
            }
            None if self.narrow => render::change_lines(s, &self.latest.1),
            None => {
                self.narrow = true;
                let width = terminal_size::terminal_size().map_or(80, |(w, _)| usize::from(w.0));
                out::note(&format!(
                    "note: the terminal ({width} columns) is too narrow for this view: one line \
                     per change until it is wider"
                ));
                let clear = if self.drawn {
                    "\x1b[2J\x1b[H\x1b[?25h"
                } else {
                    ""
                };
                self.drawn = false;
                format!("{clear}{}", render::start_lines(s))
            }
        }
    }
}
