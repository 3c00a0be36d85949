use super::Queue;
use crate::actions::*;
use crate::i18n::Language;
use crate::state::Notice;
use crate::state::knowledge::*;
use chuhe_core::knowledge;
use chuhe_core::knowledge::Hit;
use chuhe_core::record::Record;

/// Carries out a knowledge action on the reference window, in the user's `language`.
pub(super) fn run(
    view: &mut KnowledgeState,
    language: Language,
    queue: &mut Queue,
    action: KnowledgeAction,
) {
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
        KnowledgeAction::ToBoard => to_board(view, language, queue),
        KnowledgeAction::OpenHit(Hit::Entry(id)) => {
            view.query.clear();
            run(view, language, queue, KnowledgeAction::Open(id));
        }
        KnowledgeAction::OpenHit(Hit::Opening(id)) => {
            queue.push(OpeningsAction::Select(id).into());
        }
        KnowledgeAction::OpenHit(Hit::Pattern(id)) => {
            queue.push(PatternAction::Open(id, 0).into());
        }
        KnowledgeAction::ToggleBoardLines => view.board_lines = !view.board_lines,
        KnowledgeAction::Settled => view.settling = view.settling.saturating_sub(1),
    }
}

/// A new game from the diagram's position with its line as the main line, the cursor at
/// the step shown, the entry's title as the first comment.
fn to_board(view: &KnowledgeState, language: Language, queue: &mut Queue) {
    let Some(entry) = current_entry(view) else {
        return;
    };
    let Some(diagram) = entry.diagrams.get(view.diagram) else {
        return;
    };
    let Ok((start, moves)) = diagram.replay() else {
        queue.push(FeedbackAction::Say(Notice::Message("knowledge-bad-diagram")).into());
        return;
    };
    let step = view.step;
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
    queue.push(TabAction::Open(OpenGame::new(record, cursor)).into());
}
