use super::Ctx;
use crate::actions::*;
use crate::i18n::Language;
use crate::state::Notice;
use crate::state::knowledge::*;
use chuhe_core::knowledge;
use chuhe_core::knowledge::Hit;
use chuhe_core::record::Record;

/// Carries out `action`.
impl Ctx<'_> {
    /// Carries out a knowledge action.
    pub(super) fn knowledge(&mut self, action: KnowledgeAction) {
        let app = self;
        let view = &mut app.state.knowledge;
        match action {
            KnowledgeAction::Toggle => {
                view.open = !view.open;
                view.settling = 3;
            }
            KnowledgeAction::Search(query) => view.query = query,
            KnowledgeAction::Open(id) => {
                if knowledge::entry(&id).is_some() {
                    if !view.open {
                        view.open = true;
                        view.settling = 3;
                    }
                    view.entry = Some(id);
                    view.diagram = 0;
                    view.step = 0;
                }
            }
            KnowledgeAction::Diagram(index) => {
                if current_entry(view).is_some_and(|e| index < e.diagrams.len()) {
                    view.diagram = index;
                    view.step = 0;
                }
            }
            KnowledgeAction::Step(step) => {
                if let Some(d) = current_entry(view).and_then(|e| e.diagrams.get(view.diagram)) {
                    view.step = step.min(d.line.len());
                }
            }
            KnowledgeAction::ToBoard => to_board(app),
            KnowledgeAction::OpenHit(Hit::Entry(id)) => {
                view.query.clear();
                app.knowledge(KnowledgeAction::Open(id));
            }
            KnowledgeAction::OpenHit(Hit::Opening(id)) => {
                let browser = &mut app.state.openings;
                browser.open = true;
                browser.selected = Some(id);
                browser.reveal += 1;
            }
            KnowledgeAction::OpenHit(Hit::Pattern(id)) => {
                app.patterns(PatternAction::Open(id, 0));
            }
            KnowledgeAction::ToggleBoardLines => view.board_lines = !view.board_lines,
            KnowledgeAction::Settled => view.settling = view.settling.saturating_sub(1),
        }
    }
}

/// A new game from the diagram's position with its line as the main line, the cursor at
/// the step shown, the entry's title as the first comment.
fn to_board(app: &mut Ctx) {
    let view = &app.state.knowledge;
    let Some(entry) = current_entry(view) else {
        return;
    };
    let Some(diagram) = entry.diagrams.get(view.diagram) else {
        return;
    };
    let Ok((start, moves)) = diagram.replay() else {
        app.state.notice = Some(Notice::Message("knowledge-bad-diagram"));
        return;
    };
    let step = view.step;
    let language = app.services.i18n.language();
    let mut record = Record::new(start);
    let mut at = record.root();
    let mut cursor = at;
    for (ply, &m) in moves.iter().enumerate() {
        match record.add_move(at, m) {
            Ok(next) => at = next,
            Err(_) => break,
        }
        if ply < step {
            cursor = at;
        }
    }
    let mut comment = name(&entry.names, language).to_owned();
    if let Some(caption) = &diagram.caption {
        comment.push_str(if language == Language::En {
            ": "
        } else {
            "："
        });
        comment.push_str(text(caption, language));
    }
    let _ = record.set_comment(record.root(), &comment);
    app.open_record(record, None);
    app.state.study.cursor = cursor;
    app.state.refresh();
    app.state.study.folder = None;
}
