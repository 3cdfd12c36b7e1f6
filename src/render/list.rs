//! `list` output: a report value rendered as a table or JSON.

use super::table;
use crate::describe::ListReport;

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_else(|| "-".into())
}

pub fn table(report: &ListReport, verbose: bool) -> String {
    let mut t = if verbose {
        table::new(&[
            "GROUP",
            "STATE",
            "GROUP-EPOCH",
            "TARGET-ASSIGNMENT-EPOCH",
            "#MEMBERS",
        ])
    } else {
        table::new(&["GROUP", "STATE"])
    };
    for g in &report.groups {
        if verbose {
            t.add_row(vec![
                g.group_id.clone(),
                g.state.clone(),
                opt(g.group_epoch),
                opt(g.target_assignment_epoch),
                opt(g.members),
            ]);
        } else {
            t.add_row(vec![g.group_id.clone(), g.state.clone()]);
        }
    }
    table::render(&t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::describe::ListRow;

    #[test]
    fn list_table_and_json() {
        let r = ListReport {
            groups: vec![
                ListRow {
                    group_id: "a".into(),
                    state: "Stable".into(),
                    group_epoch: None,
                    target_assignment_epoch: None,
                    members: None,
                },
                ListRow {
                    group_id: "bb".into(),
                    state: "Empty".into(),
                    group_epoch: Some(3),
                    target_assignment_epoch: Some(3),
                    members: Some(0),
                },
            ],
        };
        let out = table(&r, false);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].split_whitespace().eq(["GROUP", "STATE"]));
        assert!(lines[1].split_whitespace().eq(["a", "Stable"]));
        assert!(lines[2].split_whitespace().eq(["bb", "Empty"]));
        let v = table(&r, true);
        assert!(v
            .lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .eq(["a", "Stable", "-", "-", "-"]));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(
            json["groups"][0],
            serde_json::json!({"group_id": "a", "state": "Stable"})
        );
        assert_eq!(json["groups"][1]["members"], 0);
    }
}
