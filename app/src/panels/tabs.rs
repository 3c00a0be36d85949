//! The tab bar: one tab per open game, titled by what the game calls itself (its title,
//! players or event, else its file), cut short with the whole on hover (`*` while it
//! has unsaved changes), each with a close button; `+` opens an empty game.

use crate::actions::Action;
use crate::actions::*;
use crate::state::study::Study;
use crate::widgets::View;
use crate::widgets::text::game_title;
use egui::Ui;

/// Draws the tab bar.
pub fn bar(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let active = app.state.tabs.active;
    egui::ScrollArea::horizontal()
        .id_salt("tabs")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                for (i, study) in app.state.all_tabs().enumerate() {
                    ui.group(|ui| {
                        ui.spacing_mut().item_spacing.x = 2.0;
                        let title = game_title(i18n, study);
                        if ui
                            .selectable_label(i == active, tab_label(&title, study.dirty))
                            .on_hover_text(tab_hover(&title, study))
                            .clicked()
                        {
                            actions.push(Action::Tabs(TabAction::Switch(i)));
                        }
                        if ui
                            .small_button("×")
                            .on_hover_text(i18n.tr("tabs-close"))
                            .clicked()
                        {
                            actions.push(Action::Tabs(TabAction::Close(i)));
                        }
                    });
                }
                if ui.button("+").on_hover_text(i18n.tr("tabs-new")).clicked() {
                    actions.push(Action::Tabs(TabAction::New));
                }
            });
        });
}

/// The most characters of a title a tab shows; a longer one ends in "…", whole on hover.
const TAB_TITLE_CHARS: usize = 14;

/// What a tab shows: the title, cut short with "…" past [`TAB_TITLE_CHARS`]; with `*`
/// while the game has unsaved changes.
fn tab_label(title: &str, dirty: bool) -> String {
    let mut label: String = if title.chars().count() > TAB_TITLE_CHARS {
        let kept: String = title.chars().take(TAB_TITLE_CHARS - 1).collect();
        format!("{}…", kept.trim_end())
    } else {
        title.to_owned()
    };
    if dirty {
        label.push_str(" *");
    }
    label
}

/// What hovering over a tab shows: the whole title, and the file the game is from.
fn tab_hover(title: &str, study: &Study) -> String {
    match &study.file {
        Some(path) => format!("{title}\n{}", path.display()),
        None => title.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_title_is_cut_short_with_an_ellipsis_and_keeps_its_star() {
        assert_eq!(tab_label("七星聚会", false), "七星聚会");
        assert_eq!(tab_label("七星聚会", true), "七星聚会 *");
        let long = "1987年第三屆七星杯中國象棋國際邀請賽 076 兩翼齊動";
        let label = tab_label(long, true);
        assert_eq!(label, "1987年第三屆七星杯中國… *");
        assert_eq!(label.chars().count(), TAB_TITLE_CHARS + 2);
        let exact: String = long.chars().take(TAB_TITLE_CHARS).collect();
        assert_eq!(
            tab_label(&exact, false),
            exact,
            "a title that fits is whole"
        );
    }
}
