//! Validating `--output json` documents against the schemas of `streams_group::schema`
//! (`docs/schemas/`), with the `jsonschema` crate.

use serde_json::Value;

/// The schema of a document kind (`describe`, `diff-topology`, ...); panics when there is none.
pub fn schema(kind: &str) -> Value {
    streams_group::schema::all()
        .into_iter()
        .find(|(name, _)| *name == kind)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("no JSON Schema for `{kind}` output"))
}

/// The problems `schema` finds in `doc`, one line each (empty when it is valid).
pub fn problems(schema: &Value, doc: &Value) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).expect("the schema compiles");
    validator
        .iter_errors(doc)
        .map(|e| format!("at `{}`: {e}", e.instance_path))
        .collect()
}

/// Panics unless `text` is a JSON document that the schema of `kind` accepts.
pub fn assert_valid(kind: &str, text: &str) {
    let doc: Value = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("`{kind}` output is not JSON ({e}):\n{text}"));
    let found = problems(&schema(kind), &doc);
    assert!(
        found.is_empty(),
        "`{kind}` output against its schema:\n{}",
        found.join("\n")
    );
}
