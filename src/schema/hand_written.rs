//! JSON Schemas of the types whose `Serialize` is written by hand.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::model::task_set::{TaskIds, TaskSet};

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

/// A task set is serialised as its `TaskIds` entries (one per subtopology with tasks).
impl JsonSchema for TaskSet {
    fn schema_name() -> Cow<'static, str> {
        "TaskSet".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let entry = generator.subschema_for::<TaskIds>();
        json_schema!({
            "description": "Tasks grouped by subtopology, in subtopology id order; a subtopology without tasks has no entry.",
            "type": "array",
            "items": entry,
        })
    }
}
