//! JSON Schemas of the types whose `Serialize` is written by hand (`TaskSet`'s is beside it, in
//! the model crate).

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::topology::report::ConfigurationStatus;

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
