//! Mermaid flowcharts, for Markdown renderers (GitHub, GitLab, docs sites). Subtopologies are
//! `subgraph`s; every id is made up, and names appear only in double-quoted labels, with the
//! characters Mermaid would read as markup written as its entity codes (`#quot;`, `#35;`, ...).

use std::fmt::Write;

use super::{drawing, Drawing, Item, Line, Shape};
use crate::topology::picture::{Picture, TopicRole};

pub fn mermaid(p: &Picture) -> String {
    render(&drawing(p))
}

fn render(d: &Drawing) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "---\ntitle: {}\n---", quote_title(&d.title));
    out.push_str("flowchart LR\n");
    for item in &d.topics {
        let _ = writeln!(out, "  {}", item_line(item));
    }
    for g in &d.groups {
        let _ = writeln!(
            out,
            "  subgraph {} [{}]",
            g.id,
            quote(std::slice::from_ref(&g.title))
        );
        for item in &g.items {
            let _ = writeln!(out, "    {}", item_line(item));
        }
        out.push_str("  end\n");
    }
    for l in &d.links {
        let arrow = match l.line {
            Line::Flow => "-->",
            Line::StoreUse => "-.-",
            Line::Changelog => "-. changelog .->",
        };
        let _ = writeln!(out, "  {} {arrow} {}", l.from, l.to);
    }
    let classes = [
        ("repartition", "stroke-dasharray: 5 5"),
        ("changelog", "fill:#eeeeee"),
        ("output", "stroke-width:3px"),
    ];
    for (class, style) in classes {
        let _ = writeln!(out, "  classDef {class} {style}");
    }
    let dashed: Vec<&str> = d
        .groups
        .iter()
        .filter(|g| g.dashed)
        .map(|g| g.id.as_str())
        .collect();
    if !dashed.is_empty() {
        let _ = writeln!(out, "  style {} stroke-dasharray: 5 5", dashed.join(","));
    }
    out
}

fn item_line(item: &Item) -> String {
    let label = quote(&item.label);
    let (open, close, class) = match item.shape {
        Shape::Topic(TopicRole::Source) => ("[", "]", None),
        Shape::Topic(TopicRole::Output) => ("[", "]", Some("output")),
        Shape::Topic(TopicRole::Repartition) => ("[", "]", Some("repartition")),
        Shape::Topic(TopicRole::Changelog) => ("[", "]", Some("changelog")),
        Shape::Pattern => ("[/", "/]", None),
        Shape::Source | Shape::Sink => ("([", "])", None),
        Shape::Processor => ("(", ")", None),
        Shape::Store => ("[(", ")]", None),
        Shape::Tasks => ("[[", "]]", None),
    };
    match class {
        Some(c) => format!("{}{open}{label}{close}:::{c}", item.id),
        None => format!("{}{open}{label}{close}", item.id),
    }
}

/// A double-quoted Mermaid label of `lines`, joined by `<br/>`.
pub(crate) fn quote(lines: &[String]) -> String {
    let escaped: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    format!("\"{}\"", escaped.join("<br/>"))
}

/// Entity codes for what Mermaid or its HTML labels would take as markup.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '`' => out.push_str("#96;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The front-matter title is YAML: a double-quoted YAML string.
fn quote_title(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_escape_markup() {
        assert_eq!(quote(&["a.b-c_d".into()]), "\"a.b-c_d\"");
        assert_eq!(
            quote(&["x\"<y>#&`".into(), "2".into()]),
            "\"x#quot;#lt;y#gt;#35;#amp;#96;<br/>2\""
        );
        assert_eq!(quote_title("a \"b\" \\c"), "\"a \\\"b\\\" \\\\c\"");
    }
}
