//! Reaching the cluster from the connection options (`--bootstrap-server`, `--command-config`,
//! `--timeout`, `--debug`, see [`ConnectionArgs`](super::global::ConnectionArgs)): the one
//! place commands build a client configuration.

use std::time::Duration;

use kafka::{self, config::ClientConfig};
use streams_group::render::out;
use streams_group::source::GroupSource;

use super::GlobalArgs;
use crate::command_error::CommandError;

/// The client configuration. With `--verbose`, unknown property keys are noted on stderr;
/// `--debug` turns the client's request trace on, for the rest of the command.
pub fn client_config(global: &GlobalArgs) -> Result<ClientConfig, CommandError> {
    let c = &global.connection;
    if c.debug {
        kafka::trace::enable();
    }
    let Some(bootstrap) = c.bootstrap_server.as_deref() else {
        return Err(CommandError::usage(
            "this command needs --bootstrap-server HOST:PORT (or STREAMS_GROUP_BOOTSTRAP_SERVER)",
        ));
    };
    let cfg = kafka::config::load(
        bootstrap,
        Duration::from_millis(c.timeout_ms()),
        c.command_config.as_deref(),
    )?;
    if global.verbose {
        for k in &cfg.ignored_keys {
            out::note(&format!(
                "note: --command-config key `{k}` is not used by streams-group"
            ));
        }
    }
    Ok(cfg)
}

/// The client configuration of an offline-first command that was given a live group: without
/// a bootstrap server, the hint offers the offline way.
pub fn group_client(global: &GlobalArgs) -> Result<ClientConfig, CommandError> {
    client_config(global).map_err(|e| {
        e.with_hint(
            "or describe the group to a file with `describe --output json` and pass that file",
        )
    })
}

/// A live group as a group source.
pub fn live_group(global: &GlobalArgs, group_id: &str) -> Result<GroupSource, CommandError> {
    Ok(GroupSource::Live {
        group_id: group_id.to_string(),
        client: Box::new(group_client(global)?),
    })
}
