//! JSON Schemas of the model types whose `Serialize` is written by hand (see `crate::schema`).

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use super::task_set::{TaskIds, TaskSet};

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
