//! tmux on a socket of a test's own (named by the process and the test's `name`), so that tests
//! running at once never touch each other's sessions: a pseudo-terminal for what the binary does
//! only on a terminal.

use std::process::Command;

pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// A tmux server of its own for the test `name`; fails loudly without tmux.
    pub fn new(name: &str) -> Tmux {
        let which = Command::new("tmux").arg("-V").output();
        assert!(
            which.is_ok_and(|o| o.status.success()),
            "tmux is needed to run the binary in a pseudo-terminal (apt-get install tmux)"
        );
        Tmux {
            socket: format!("streams-group-{name}-{}", std::process::id()),
        }
    }

    /// `tmux ARGS...` on this server: its stdout.
    pub fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// What session `session`'s pane shows now.
    pub fn screen_of(&self, session: &str) -> String {
        self.run(&["capture-pane", "-p", "-t", session])
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}
