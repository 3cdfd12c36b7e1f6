//! `describe --watch`: sample the groups every INTERVAL, show what changed, record the samples.
//!
//! Three threads: the sampler (one describe per tick, each bounded by --timeout), the signal
//! listener (Ctrl-C or SIGTERM ends the watch with exit 0), and this one, which renders. They
//! meet on one channel, so a Ctrl-C during a slow describe ends the watch at once.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use kafka::config::ClientConfig;
use kafka::waits::Waits;
use model::group::Snapshot;
use streams_group::error;
use streams_group::render::out::note;
use streams_group::render::watch::MarkBy;
use streams_group::source::live::GroupSelection;
use streams_group::watch::late::Late;
use streams_group::watch::live as sampling;
use streams_group::watch::sample::{Sample, Waited};

use super::{now_ms, GlobalArgs, Outcome};
use crate::command_error::{CommandError, Kind};
use crate::exit::Code;

mod screen;

#[derive(Debug, Clone, clap::Args)]
pub struct WatchArgs {
    /// Describe again every INTERVAL (seconds, or 500ms, 2s, 1m; 2 s when not given) and show
    /// what changed; Ctrl-C stops
    #[arg(long, value_name = "INTERVAL", num_args = 0..=1, default_missing_value = "2",
          allow_negative_numbers = true, value_parser = streams_group::time::parse_interval)]
    pub watch: Option<Duration>,

    /// With --watch: stop after N samples
    #[arg(allow_negative_numbers = true, long, visible_alias = "count", value_name = "N", requires = "watch",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub samples: Option<u64>,

    /// With --watch: stop after DURATION (seconds, or 90s, 5m, 1h)
    #[arg(long = "for", value_name = "DURATION", requires = "watch",
          allow_negative_numbers = true, value_parser = streams_group::time::parse_interval)]
    pub for_duration: Option<Duration>,

    /// With --watch: append every sample to FILE as one JSON line (`timeline FILE` replays it)
    #[arg(long, value_name = "FILE", requires = "watch")]
    pub record: Option<PathBuf>,
}

/// What the watch shows: the chosen describe view, and how its rows are marked.
pub struct View<'a> {
    /// `--members`, `--offsets`, ...: for the title.
    pub name: &'static str,
    pub table: &'a dyn Fn(&Snapshot) -> String,
    pub mark_by: MarkBy,
}

enum Event {
    Sample(Box<Sample>),
    Failed(error::Error),
    Stop,
    /// No sample yet, and it is time to look at what the one in flight waits for.
    Look,
}

/// Watch until Ctrl-C, `--samples` or `--for`.
pub fn run(
    global: &GlobalArgs,
    args: &WatchArgs,
    every: Duration,
    client: ClientConfig,
    selection: GroupSelection,
    view: View,
) -> Outcome {
    let mut record = args.record.as_deref().map(Recording::open).transpose()?;
    let (tx, events) = mpsc::channel();
    on_signal(tx.clone())?;
    let waits = Waits::shared();
    start_sampler(client, selection.clone(), every, tx, waits.clone());
    let title = title(&selection, &view, every);
    let mut show = screen::Show::new(global.format(), title, view);
    let deadline = args.for_duration.map(|d| Instant::now() + d);
    let mut late = Late::new(every, Instant::now());
    let mut taken = 0;
    let outcome = loop {
        match next(&events, deadline, late.next_look()) {
            Event::Stop => break Ok(Code::Success),
            Event::Failed(e) => break Err(e.into()),
            Event::Look => {
                if let Some(wait) = late.look(Instant::now(), waits.current()) {
                    show.waiting(&wait, now_ms());
                }
            }
            Event::Sample(mut s) => {
                // The sampler gave the sample its longest wait; kept only if it was late.
                s.waited = late.arrived(Instant::now(), s.waited.take());
                taken += 1;
                if let Some(r) = &mut record {
                    if let Err(e) = r.append(&s) {
                        break Err(e);
                    }
                }
                tell_what_failed(&s, every);
                if let Err(e) = show.sample(*s) {
                    break Err(e.into());
                }
                if args.samples == Some(taken) {
                    break Ok(Code::Success);
                }
            }
        }
    };
    show.finish();
    outcome
}

/// A sample that could not be taken, or a group it could not describe, is said on stderr (one
/// line each, with why): the watch goes on. Not while the full screen shows it on the same
/// terminal.
fn tell_what_failed(s: &Sample, every: Duration) {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() && std::io::stderr().is_terminal() {
        return;
    }
    let again = format!("sampling again every {} ms", every.as_millis());
    if let Some(e) = &s.error {
        note(&format!(
            "warning: sample at {} not taken: {e}; {again}",
            s.sampled_at
        ));
    }
    for g in &s.group_errors {
        note(&format!(
            "warning: sample at {}: group `{}` not described: {}; {again}",
            s.sampled_at, g.group_id, g.error
        ));
    }
}

/// The next event: `Stop` when `deadline` passes first, `Look` when `look` does.
fn next(events: &Receiver<Event>, deadline: Option<Instant>, look: Instant) -> Event {
    let stop = deadline.is_some_and(|d| d <= look);
    let until = if stop { deadline.unwrap_or(look) } else { look };
    match events.recv_timeout(until.saturating_duration_since(Instant::now())) {
        Ok(event) => event,
        Err(RecvTimeoutError::Timeout) if !stop => Event::Look,
        Err(_) => Event::Stop,
    }
}

fn title(selection: &GroupSelection, view: &View, every: Duration) -> String {
    let groups = match selection {
        GroupSelection::All => "all groups".to_string(),
        GroupSelection::Groups(ids) => ids.join(", "),
    };
    let every = match every.as_millis() {
        ms if ms % 1000 == 0 => format!("{} s", ms / 1000),
        ms => format!("{ms} ms"),
    };
    format!(
        "describe {groups} {}, every {every}; Ctrl-C stops",
        view.name
    )
}

/// One describe per tick; a tick missed by a slow describe is skipped, not caught up. The
/// describe tells `waits` what it waits for, which the watch says when the sample is late.
fn start_sampler(
    client: ClientConfig,
    selection: GroupSelection,
    every: Duration,
    tx: Sender<Event>,
    waits: Waits,
) {
    std::thread::spawn(move || {
        let mut tick = Instant::now();
        loop {
            let event = match sampling::sample(&client, &selection, &waits, now_ms) {
                Ok(mut s) => {
                    let longest = waits.take_longest();
                    s.waited = longest.map(|(w, ended)| Waited::until(w, ended));
                    Event::Sample(Box::new(s))
                }
                Err(e) => Event::Failed(e),
            };
            let failed = matches!(event, Event::Failed(_));
            if tx.send(event).is_err() || failed {
                return;
            }
            tick += every;
            let now = Instant::now();
            if tick < now {
                tick = now;
            }
            std::thread::sleep(tick - now);
        }
    });
}

/// Ctrl-C (SIGINT) and SIGTERM become `Stop`: the watch ends as asked, with exit 0.
fn on_signal(tx: Sender<Event>) -> Result<(), CommandError> {
    let internal = |e: std::io::Error| {
        CommandError::new(Kind::Internal, format!("cannot listen for Ctrl-C: {e}"))
            .with_hint(crate::command_error::HINT_BUG)
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(internal)?;
    #[cfg(unix)]
    let stop = {
        use tokio::signal::unix::{signal, SignalKind};
        let (mut int, mut term) = rt
            .block_on(async {
                Ok((
                    signal(SignalKind::interrupt())?,
                    signal(SignalKind::terminate())?,
                ))
            })
            .map_err(internal)?;
        async move {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
        }
    };
    #[cfg(not(unix))]
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    std::thread::spawn(move || {
        rt.block_on(stop);
        let _ = tx.send(Event::Stop);
    });
    Ok(())
}

/// The `--record` file: one sample per line, appended.
struct Recording {
    path: PathBuf,
    file: File,
}

impl Recording {
    fn open(path: &Path) -> Result<Recording, CommandError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| record_error(path, &e))?;
        Ok(Recording {
            path: path.to_path_buf(),
            file,
        })
    }

    /// One line in one write, so that a reader never sees half of it unless the disk fills.
    fn append(&mut self, s: &Sample) -> Result<(), CommandError> {
        let mut line = serde_json::to_string(s).map_err(|e| {
            CommandError::new(Kind::Internal, format!("cannot encode a sample: {e}"))
        })?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| record_error(&self.path, &e))
    }
}

fn record_error(path: &Path, e: &std::io::Error) -> CommandError {
    CommandError::new(
        Kind::Output,
        format!("cannot write the recording {}: {e}", path.display()),
    )
}
