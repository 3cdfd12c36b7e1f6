//! The JSON contract, machine-readable: a JSON Schema (draft 2020-12) for each `--output json`
//! document, generated from the report types. `docs/schemas/NAME.schema.json` holds them;
//! tests/cli/json_schema.rs keeps those files in step with [`all`] and validates every command's
//! real output against them.
//!
//! The schemas describe what is written (serde's serialize side): a field is required unless
//! it is skipped when empty, and an object takes no field its type does not have.

mod hand_written;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

use crate::admin::report::{DeleteOffsetsReport, DeleteReport, ResetReport};
use crate::check_epoch::CheckReport;
use crate::describe::ListReport;
use crate::diff::{AssignmentDiffReport, TopologyDiffReport};
use crate::history::report::HistoryReport;
use crate::lag::LagReport;
use crate::simulate::report::SimulationReport;
use crate::topology::report::TopologyReport;
use crate::watch::timeline::TimelineReport;
use crate::watch::WatchLine;
use model::group::Snapshot;

/// Every document: its name (`diff-topology` for `diff topology`; the schema file is
/// `docs/schemas/NAME.schema.json`) and its schema. `describe` is also the snapshot file that
/// the offline commands read; `describe-watch` is one line of `describe --watch --output json`
/// and of a `--record` file.
pub fn all() -> Vec<(&'static str, Value)> {
    vec![
        ("describe", of::<Snapshot>()),
        ("describe-watch", of::<WatchLine>()),
        ("list", of::<ListReport>()),
        ("simulate", of::<SimulationReport>()),
        ("diff-topology", of::<TopologyDiffReport>()),
        ("diff-assignment", of::<AssignmentDiffReport>()),
        ("check-epoch", of::<CheckReport>()),
        ("lag", of::<LagReport>()),
        ("topology", of::<TopologyReport>()),
        ("reset-offsets", of::<ResetReport>()),
        ("delete-offsets", of::<DeleteOffsetsReport>()),
        ("delete", of::<DeleteReport>()),
        ("timeline", of::<TimelineReport>()),
        ("history", of::<HistoryReport>()),
    ]
}

/// The schema of one document type, strict (see `close_objects`).
pub fn of<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    close_objects(&mut schema, false);
    absent_not_null(&mut schema);
    schema
}

/// Structs take no other fields: `additionalProperties: false` on every object schema with
/// `properties`. An object that also has `oneOf`/`anyOf`/`allOf` (a flattened enum, e.g. the
/// `verdict` of check-epoch's `broker`) gets `unevaluatedProperties: false` instead, which sees
/// the fields of the branch that matched, and its branches are left open (they are only part of
/// the object).
fn close_objects(schema: &mut Value, branch: bool) {
    const COMBINERS: [&str; 3] = ["oneOf", "anyOf", "allOf"];
    match schema {
        Value::Object(map) => {
            let combined = COMBINERS.iter().any(|k| map.contains_key(*k));
            let has_properties = map.contains_key("properties");
            if has_properties && combined {
                map.entry("unevaluatedProperties").or_insert(false.into());
            } else if has_properties && !branch {
                map.entry("additionalProperties").or_insert(false.into());
            }
            for (key, child) in map.iter_mut() {
                let open_branches = has_properties && COMBINERS.contains(&key.as_str());
                match child {
                    Value::Array(branches) if open_branches => {
                        branches.iter_mut().for_each(|b| close_objects(b, true));
                    }
                    _ => close_objects(child, false),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| close_objects(i, false)),
        _ => {}
    }
}

/// A field that is not required is one serde skips when it is `None` (or empty): it is absent,
/// never `null`, so its schema loses the `null` that `Option` gave it.
fn absent_not_null(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let required: Vec<Value> = map
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                for (name, field) in properties.iter_mut() {
                    if !required.contains(&Value::String(name.clone())) {
                        drop_null(field);
                    }
                }
            }
            map.values_mut().for_each(absent_not_null);
        }
        Value::Array(items) => items.iter_mut().for_each(absent_not_null),
        _ => {}
    }
}

/// `{"type": ["T", "null"]}` becomes `{"type": "T"}`; `{"anyOf": [S, {"type": "null"}]}` becomes S.
fn drop_null(field: &mut Value) {
    let Value::Object(map) = field else { return };
    let null = Value::from("null");
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| *t != null);
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        }
    }
    let is_null =
        |s: &Value| s.get("type") == Some(&null) && s.as_object().is_some_and(|o| o.len() == 1);
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        if let [a, b] = branches.as_slice() {
            let kept = match (is_null(a), is_null(b)) {
                (false, true) => a.clone(),
                (true, false) => b.clone(),
                _ => return,
            };
            map.remove("anyOf");
            if let Value::Object(kept) = kept {
                map.extend(kept);
            }
        }
    }
}
