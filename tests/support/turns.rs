//! Round trips in a row, counted on the wire: a TCP proxy in front of a broker that counts the
//! client's turns, each run of bytes the client sends after the broker last answered. Requests
//! sent back to back before any answer are one turn; a request that waits for an answer starts
//! a new one. What `strace` showed by hand (docs/dev/cluster-scale.md), as a test.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

/// A proxy listening on a port of its own and forwarding every connection to one broker.
pub struct TurnCounter {
    pub addr: String,
    turns: Arc<AtomicUsize>,
    connections: Arc<AtomicUsize>,
}

impl TurnCounter {
    /// Proxy to `upstream` (`host:port`), for as long as the test runs.
    pub fn start(upstream: &str) -> TurnCounter {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the turn counter");
        let addr = listener.local_addr().unwrap().to_string();
        let turns = Arc::new(AtomicUsize::new(0));
        let connections = Arc::new(AtomicUsize::new(0));
        let (t, c, upstream) = (turns.clone(), connections.clone(), upstream.to_string());
        thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(server) = TcpStream::connect(&upstream) else {
                    continue;
                };
                c.fetch_add(1, Ordering::SeqCst);
                forward(client, server, t.clone());
            }
        });
        TurnCounter {
            addr,
            turns,
            connections,
        }
    }

    /// Client turns since the last reset, over every connection.
    pub fn turns(&self) -> usize {
        self.turns.load(Ordering::SeqCst)
    }

    /// Connections made through the proxy since the last reset.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    pub fn reset(&self) {
        self.turns.store(0, Ordering::SeqCst);
        self.connections.store(0, Ordering::SeqCst);
    }
}

/// Copy both ways; a client read that follows a server write (or opens the connection) is a
/// new turn.
fn forward(client: TcpStream, server: TcpStream, turns: Arc<AtomicUsize>) {
    let answered = Arc::new(AtomicBool::new(true));
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (mut c_in, mut c_out) = (client.try_clone().unwrap(), client);
    let (mut s_in, mut s_out) = (server.try_clone().unwrap(), server);
    let a = answered.clone();
    thread::spawn(move || {
        let mut buf = [0u8; 64 * 1024];
        while let Ok(n @ 1..) = c_in.read(&mut buf) {
            if a.swap(false, Ordering::SeqCst) {
                turns.fetch_add(1, Ordering::SeqCst);
            }
            if s_out.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = s_out.shutdown(Shutdown::Write);
    });
    thread::spawn(move || {
        let mut buf = [0u8; 64 * 1024];
        while let Ok(n @ 1..) = s_in.read(&mut buf) {
            answered.store(true, Ordering::SeqCst);
            if c_out.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = c_out.shutdown(Shutdown::Write);
    });
}
