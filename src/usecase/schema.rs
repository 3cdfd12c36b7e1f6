//! JSON Schemas of the report types whose `Serialize` is written by hand (see `crate::schema`).

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use super::topology::ConfigurationStatus;

/// Serialised as its name: `READY`, a heartbeat status or an error name.
impl JsonSchema for ConfigurationStatus {
    fn schema_name() -> Cow<'static, str> {
        "ConfigurationStatus".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "`READY`, the heartbeat status the group would get (e.g. `MISSING_SOURCE_TOPICS`), or the error of an invalid topology (`STREAMS_INVALID_TOPOLOGY`).",
            "type": "string",
            "pattern": "^[A-Z][A-Z0-9_]*$",
        })
    }
}
