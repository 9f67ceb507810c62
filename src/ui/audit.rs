//! What the UI drew, measured after egui's pass ends, for checks from outside (the browser
//! test reads it from the page, `crate::platform`): the rectangle of every egui area (panels
//! and windows), of every button, and every text that is clipped — wider than the rectangle it
//! may draw in, cut short with "…", running off the screen, or wrapped inside a word.
//!
//! Measured only when [`UiAudit`] exists (the browser build inserts it); all rectangles are in
//! logical pixels (CSS pixels in the browser): egui's points times the UI scale.
use bevy::prelude::*;
use bevy_egui::{EguiContext, EguiFullOutput, EguiPostUpdateSet, PrimaryEguiContext, egui};

use super::layout::CssPixels;

/// The UI's measurements of the last frame.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct UiAudit {
    /// Every visible egui area: panels (`background` order) and windows (`middle`), popups
    /// and tooltips (`foreground`, `tooltip`).
    pub areas: Vec<(&'static str, Rect)>,
    /// Every button-like widget (it reacts to a click and is not dragged: buttons, selectable
    /// rows, check boxes, radio buttons, combo boxes).
    pub buttons: Vec<Rect>,
    /// The texts drawn clipped, with why.
    pub clipped: Vec<String>,
    /// The smallest text size drawn (points times the UI scale), outside the board's labels.
    pub smallest_text: Option<f32>,
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        measure
            .after(EguiPostUpdateSet::EndPass)
            .before(EguiPostUpdateSet::ProcessOutput)
            .run_if(resource_exists::<UiAudit>),
    );
}

fn order_name(order: egui::Order) -> &'static str {
    match order {
        egui::Order::Background => "background",
        egui::Order::Middle => "middle",
        egui::Order::Foreground => "foreground",
        egui::Order::Tooltip => "tooltip",
        egui::Order::Debug => "debug",
    }
}

fn measure(
    mut contexts: Query<(&mut EguiContext, &EguiFullOutput), With<PrimaryEguiContext>>,
    css: Res<CssPixels>,
    mut audit: ResMut<UiAudit>,
) {
    let Ok((mut context, output)) = contexts.single_mut() else {
        return;
    };
    let Some(output) = output.0.as_ref() else {
        return;
    };
    let ctx = context.get_mut().clone();
    let ctx = &ctx;
    // Points → logical pixels → CSS pixels.
    let zoom = ctx.zoom_factor() * css.0;
    let to_logical = |r: egui::Rect| {
        Rect::new(
            r.min.x * zoom,
            r.min.y * zoom,
            r.max.x * zoom,
            r.max.y * zoom,
        )
    };
    let screen = ctx.content_rect();
    let (mut areas, area_ids): (Vec<(&'static str, Rect)>, Vec<egui::Id>) = ctx.memory(|m| {
        let visible = m.areas().visible_layer_ids();
        let ids = m.layer_ids().map(|l| l.id).collect();
        let areas = m
            .layer_ids()
            // The root layer holds what is painted under everything (the menu's backdrop, the
            // board's coordinates), not a panel.
            .filter(|l| visible.contains(l) && *l != egui::LayerId::background())
            .filter_map(|l| Some((order_name(l.order), to_logical(m.area_rect(l.id)?))))
            .collect();
        (areas, ids)
    });
    areas.retain(|(_, r)| r.width() > 0.0 && r.height() > 0.0);
    let buttons = ctx.viewport(|v| {
        v.prev_pass
            .widgets
            .layers()
            .flat_map(|(_, widgets)| widgets.iter())
            .filter(|w| w.sense.senses_click() && !w.sense.senses_drag())
            // Areas themselves sense clicks (to come to the front): not buttons.
            .filter(|w| !area_ids.contains(&w.id))
            .filter(|w| w.rect.is_positive() && w.interact_rect.is_positive())
            .map(|w| to_logical(w.rect))
            .collect()
    });
    let mut clipped = Vec::new();
    let mut smallest: Option<f32> = None;
    for clipped_shape in &output.shapes {
        check(
            &clipped_shape.shape,
            clipped_shape.clip_rect,
            screen,
            &mut clipped,
            &mut smallest,
        );
    }
    clipped.truncate(30);
    let measured = UiAudit {
        areas,
        buttons,
        clipped,
        smallest_text: smallest.map(|s| s * zoom),
    };
    audit.set_if_neq(measured);
}

/// Checks a shape's texts (`screen` and `clip` in points).
fn check(
    shape: &egui::Shape,
    clip: egui::Rect,
    screen: egui::Rect,
    clipped: &mut Vec<String>,
    smallest: &mut Option<f32>,
) {
    match shape {
        egui::Shape::Vec(shapes) => {
            for s in shapes {
                check(s, clip, screen, clipped, smallest);
            }
        }
        egui::Shape::Text(text) => {
            let galley = &text.galley;
            let content = galley.text();
            if content.trim().is_empty() || text.angle != 0.0 {
                return;
            }
            let rect = galley.rect.translate(text.pos.to_vec2());
            let visible = clip.intersect(screen);
            let unclipped = clip.contains_rect(screen.shrink(1.0));
            let short: String = content.chars().take(40).collect();
            if !rect.intersects(visible) {
                // Scrolled out of a scroll area is fine; out of the screen is not.
                if unclipped {
                    clipped.push(format!("off the screen: {short}"));
                }
                return;
            }
            for section in &galley.job.sections {
                let size = section.format.font_id.size;
                *smallest = Some(smallest.map_or(size, |s: f32| s.min(size)));
            }
            if galley.elided {
                clipped.push(format!("cut short: {short}"));
            } else if rect.min.x < visible.min.x - 1.0 || rect.max.x > visible.max.x + 1.0 {
                clipped.push(format!(
                    "wider than its room ({:.0} > {:.0}): {short}",
                    rect.width(),
                    visible.width()
                ));
            } else if unclipped
                && (rect.min.y < screen.min.y - 1.0 || rect.max.y > screen.max.y + 1.0)
            {
                clipped.push(format!("partly off the screen: {short}"));
            }
            for pair in galley.rows.windows(2) {
                if pair[0].ends_with_newline {
                    continue;
                }
                let last = pair[0].row.glyphs.last().map(|g| g.chr);
                let first = pair[1].row.glyphs.first().map(|g| g.chr);
                if let (Some(a), Some(b)) = (last, first)
                    && a.is_alphanumeric()
                    && b.is_alphanumeric()
                {
                    clipped.push(format!("wrapped inside a word ({a}|{b}): {short}"));
                    break;
                }
            }
        }
        _ => {}
    }
}
