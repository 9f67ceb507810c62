//! Titles and one-line summaries of the shipped variants in each language. Variant files carry
//! their own English title and a long description; a mod's file is shown as it is written.
use crate::settings::Language;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VariantText {
    pub title: &'static str,
    pub summary: &'static str,
}

/// The shipped variant `name` in `language`, if it is one we ship.
pub fn variant_text(language: Language, name: &str) -> Option<VariantText> {
    let (title, summary) = match language {
        Language::English => english(name)?,
        Language::Russian => russian(name)?,
    };
    Some(VariantText { title, summary })
}

fn english(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "ugolki-hg-3x3" => (
            "Ugolki 3×3 (Happy Games)",
            "Race nine pieces into the opposite corner; a piece that has left its camp may not come back.",
        ),
        "ugolki-hg-3x4" => (
            "Ugolki 3×4 (Happy Games)",
            "Twelve pieces in 3×4 camps; otherwise the Happy Games rules.",
        ),
        "ugolki-9qum" => (
            "Ugolki (classic, 9qum rules)",
            "Nine pieces, orthogonal steps and jumps. The 40-move rule: a piece still at home after move 40 loses.",
        ),
        "halma-16" => (
            "Halma (16×16)",
            "Monks' Halma: 19 pieces each, steps and jumps in eight directions; fill the opposite camp with your own pieces to win.",
        ),
        "halma-16-parlett" => (
            "Halma (16×16, no blocking)",
            "Halma with Parlett's rule: a full opposite camp wins if at least one piece in it is yours, so pieces left at home cannot block you.",
        ),
        "halma-16-partners" => (
            "Halma for four, partners (16×16)",
            "Halma for four as two partnerships: the players in opposite corners win together when both have filled their targets.",
        ),
        "grasshopper" => (
            "Grasshopper (Halma on 8×8)",
            "Halma on a chessboard: ten pieces each in triangular camps, eight directions.",
        ),
        "chinese-checkers" => (
            "Chinese checkers",
            "The star for two to six: race ten pieces into the opposite point by steps and chains of hops; the others play on for the places.",
        ),
        "chinese-checkers-long" => (
            "Chinese checkers with long hops",
            "Super Chinese checkers: a hop may jump a piece any distance away along a line and land as far beyond it.",
        ),
        "focus" => (
            "Focus",
            "Sid Sackson's game of stacks: move the top of a stack as far as the pieces you lift; lose when you cannot move.",
        ),
        "focus-6x6" => (
            "Focus 6×6",
            "Focus on a small board: 32 squares, 8 pieces each, stacks of at most four.",
        ),
        "gipf-basic" => (
            "GIPF (basic game)",
            "Kris Burm's GIPF: push a piece in every turn; four in a row come back to you. Run out of pieces and you lose.",
        ),
        "gipf-standard" => (
            "GIPF (standard game)",
            "GIPF with GIPF-pieces, 18 pieces each: lose your last GIPF-piece, or run out of pieces, and you lose.",
        ),
        "gipf-tournament" => (
            "GIPF (tournament game)",
            "Standard GIPF from an empty board: each player starts by bringing in GIPF-pieces.",
        ),
        "gipf-steps" => (
            "GIPF with steps on the board",
            "GIPF as a Russian retelling describes it: bring in a piece or step one of yours along a line; play to the last piece.",
        ),
        "gipf-steps-gipf-pieces" => (
            "GIPF with steps on the board and GIPF-pieces",
            "GIPF with steps on the board, and three GIPF-pieces each in reserve besides the basic pieces.",
        ),
        _ => return None,
    })
}

fn russian(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "ugolki-hg-3x3" => (
            "Уголки 3×3 (Happy Games)",
            "Проведите девять шашек в противоположный угол; шашка, покинувшая свой лагерь, вернуться в него не может.",
        ),
        "ugolki-hg-3x4" => (
            "Уголки 3×4 (Happy Games)",
            "Двенадцать шашек в лагерях 3×4; остальные правила — как у Happy Games.",
        ),
        "ugolki-9qum" => (
            "Уголки (классика, правила 9qum)",
            "Девять шашек, ходы и прыжки по вертикали и горизонтали. Правило 40 ходов: у кого после 40-го хода шашка осталась дома, тот проиграл.",
        ),
        "halma-16" => (
            "Хальма (16×16)",
            "Хальма Монкса: по 19 фишек, ходы и прыжки в восьми направлениях; побеждает тот, кто займёт своими фишками чужой лагерь.",
        ),
        "halma-16-parlett" => (
            "Хальма (16×16, без блокировки)",
            "Хальма с правилом Парлетта: заполненный чужой лагерь, где есть хоть одна ваша фишка, — победа, так что оставленные дома фишки соперника вас не запрут.",
        ),
        "halma-16-partners" => (
            "Хальма вчетвером, пары (16×16)",
            "Хальма для четверых в двух парах: игроки из противоположных углов побеждают вместе, когда оба заполнят свои лагеря.",
        ),
        "grasshopper" => (
            "Кузнечик (хальма 8×8)",
            "Хальма на шахматной доске: по десять фишек в треугольных лагерях, ходы в восьми направлениях.",
        ),
        "chinese-checkers" => (
            "Китайские шашки",
            "Звезда для двух–шести игроков: проведите десять фишек в противоположный луч шагами и цепочками прыжков; остальные доигрывают за места.",
        ),
        "chinese-checkers-long" => (
            "Китайские шашки с дальними прыжками",
            "Прыжок через фишку на любом расстоянии по линии — с приземлением на таком же расстоянии за ней.",
        ),
        "focus" => (
            "Фокус",
            "Игра Сида Сэксона с башнями: верх башни переносится на столько клеток, сколько фишек взято; кому нечем ходить, тот проиграл.",
        ),
        "focus-6x6" => (
            "Фокус 6×6",
            "Фокус на маленькой доске: 32 клетки, по 8 фишек, башни не выше четырёх.",
        ),
        "gipf-basic" => (
            "GIPF (базовая игра)",
            "Игра Криса Бурма: каждый ход вводите фишку с края, сдвигая ряд; четыре свои в линию возвращаются в запас. Кончились фишки — поражение.",
        ),
        "gipf-standard" => (
            "GIPF (стандартная игра)",
            "GIPF с GIPF-фишками, по 18 фишек: кто потерял последнюю GIPF-фишку или исчерпал запас, тот проиграл.",
        ),
        "gipf-tournament" => (
            "GIPF (турнирная игра)",
            "Стандартный GIPF с пустой доски: каждый начинает с ввода GIPF-фишек.",
        ),
        "gipf-steps" => (
            "GIPF с ходами по доске",
            "GIPF по русскому пересказу: введите фишку с края или сдвиньте свою на соседнее поле; игра идёт до последней фишки.",
        ),
        "gipf-steps-gipf-pieces" => (
            "GIPF с ходами по доске и GIPF-фишками",
            "GIPF с ходами по доске и ещё по три GIPF-фишки в запасе у каждого.",
        ),
        _ => return None,
    })
}
