//! The GIPF board: 37 spots (the play area) ringed by 24 dots (entry points only), in the
//! official coordinates of gipf.com (rules.md §6.1).
//!
//! Seen from White, the vertical lines are the columns a…i (lengths 5 6 7 8 9 8 7 6 5), and
//! every column is numbered from White's side, dots included: `a1`…`a5`, `b1`…`b6`, …, `e1`…`e9`.
//! Inside, a point is a cube coordinate `(x, y, z)` with `x + y + z = 0`:
//! `x = column − 'e'`, `y = n − 1 + max(−4, −4 − x)`. Spots have `max(|x|,|y|,|z|) ≤ 3`, dots `= 4`.
//!
//! Everything here (names, neighbours, the 21 lines, the 42 entry moves) is computed once from
//! that formula; nothing is typed in by hand, and a test compares the result with Appendix A.
use std::{fmt, sync::LazyLock};

/// Number of spots (the play area).
pub const SPOT_COUNT: usize = 37;
/// Number of dots on the rim (entry points).
pub const DOT_COUNT: usize = 24;
/// Number of lines through the play area (3 directions × 7).
pub const LINE_COUNT: usize = 21;
/// Number of entry moves (dot, adjacent spot).
pub const ENTRY_COUNT: usize = 42;

/// A spot of the play area, 0…36 in column order (b2 b3 b4 b5 c2 … h5).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spot(u8);

/// A dot on the rim, 0…23 in column order (a1 … a5 b1 b6 c1 c7 … i5).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dot(u8);

/// Any of the 61 named points.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Point {
    Spot(Spot),
    Dot(Dot),
}

/// The six directions along the lines of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction::N,
        Direction::NE,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::NW,
    ];

    /// The cube-coordinate step (rules.md §6.1).
    pub const fn delta(self) -> (i8, i8, i8) {
        match self {
            Direction::N => (0, 1, -1),
            Direction::S => (0, -1, 1),
            Direction::NE => (1, 0, -1),
            Direction::SW => (-1, 0, 1),
            Direction::SE => (1, -1, 0),
            Direction::NW => (-1, 1, 0),
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::N => Direction::S,
            Direction::S => Direction::N,
            Direction::NE => Direction::SW,
            Direction::SW => Direction::NE,
            Direction::SE => Direction::NW,
            Direction::NW => Direction::SE,
        }
    }
}

/// A column's letter index (0 = a … 8 = i) and the number of points in it.
const fn column_len(col: u8) -> u8 {
    9 - (col as i8 - 4).unsigned_abs()
}

/// Cube coordinates of the point `n` (1-based) of column `col` (0 = a).
const fn cube(col: u8, n: u8) -> (i8, i8, i8) {
    let x = col as i8 - 4;
    let low = if -4 - x > -4 { -4 - x } else { -4 };
    let y = n as i8 - 1 + low;
    (x, y, -x - y)
}

const fn ring(c: (i8, i8, i8)) -> u8 {
    let (a, b, d) = (c.0.unsigned_abs(), c.1.unsigned_abs(), c.2.unsigned_abs());
    let m = if a > b { a } else { b };
    if m > d { m } else { d }
}

/// One straight run of spots in push order, with the dots at both ends.
#[derive(Clone, Debug)]
pub struct Ray {
    pub spots: [Spot; 7],
    pub len: u8,
}

impl Ray {
    pub fn spots(&self) -> &[Spot] {
        &self.spots[..self.len as usize]
    }
}

/// One of the 21 lines through the play area, its spots in the direction `dir` (N, NE or SE).
#[derive(Clone, Debug)]
pub struct Line {
    pub dir: Direction,
    pub ray: Ray,
    /// Bit `s` set for every spot `s` of the line.
    pub mask: u64,
}

/// An entry move: a piece put on `dot` and pushed onto `spot`, along `dir`; the pieces in `ray`
/// (starting with `spot`) shift towards `far_dot`.
#[derive(Clone, Debug)]
pub struct Entry {
    pub dot: Dot,
    pub spot: Spot,
    pub dir: Direction,
    pub ray: Ray,
    pub far_dot: Dot,
    /// Bit mask of the ray's spots.
    pub mask: u64,
}

/// All precomputed board tables.
pub struct Geometry {
    spot_cube: [(i8, i8, i8); SPOT_COUNT],
    spot_name: [(u8, u8); SPOT_COUNT],
    dot_name: [(u8, u8); DOT_COUNT],
    /// `neighbour[spot][dir]`: the adjacent point, if any.
    neighbour: [[Option<Point>; 6]; SPOT_COUNT],
    /// `ray[spot][dir]`: the spots from `spot` (included) along `dir` to the rim.
    rays: Vec<[Ray; 6]>,
    pub lines: Vec<Line>,
    /// `lines_of[spot]`: bit `l` set for the 3 lines through `spot`.
    pub lines_of: [u32; SPOT_COUNT],
    pub entries: Vec<Entry>,
    /// `entries_from[dot]`: the indices of the entries from that dot (1 for corners, else 2).
    entries_from: Vec<Vec<u8>>,
}

static GEOMETRY: LazyLock<Geometry> = LazyLock::new(Geometry::build);

/// The board tables (built on first use).
#[inline]
pub fn geometry() -> &'static Geometry {
    &GEOMETRY
}

impl Geometry {
    fn build() -> Geometry {
        // Enumerate the 61 points column by column.
        let mut spot_cube = [(0, 0, 0); SPOT_COUNT];
        let mut spot_name = [(0, 0); SPOT_COUNT];
        let mut dot_name = [(0, 0); DOT_COUNT];
        let mut dot_cube = [(0, 0, 0); DOT_COUNT];
        let (mut ns, mut nd) = (0, 0);
        for col in 0..9u8 {
            for n in 1..=column_len(col) {
                let c = cube(col, n);
                if ring(c) <= 3 {
                    spot_cube[ns] = c;
                    spot_name[ns] = (col, n);
                    ns += 1;
                } else {
                    dot_cube[nd] = c;
                    dot_name[nd] = (col, n);
                    nd += 1;
                }
            }
        }
        assert!(ns == SPOT_COUNT && nd == DOT_COUNT);
        let point_at = |c: (i8, i8, i8)| -> Option<Point> {
            if let Some(i) = spot_cube.iter().position(|&s| s == c) {
                return Some(Point::Spot(Spot(i as u8)));
            }
            dot_cube
                .iter()
                .position(|&d| d == c)
                .map(|i| Point::Dot(Dot(i as u8)))
        };
        let step = |c: (i8, i8, i8), d: Direction| {
            let (dx, dy, dz) = d.delta();
            (c.0 + dx, c.1 + dy, c.2 + dz)
        };

        let mut neighbour = [[None; 6]; SPOT_COUNT];
        for s in 0..SPOT_COUNT {
            for d in Direction::ALL {
                neighbour[s][d.index()] = point_at(step(spot_cube[s], d));
            }
        }
        let ray_from = |start: (i8, i8, i8), d: Direction| -> (Ray, Option<Point>) {
            let mut ray = Ray {
                spots: [Spot(0); 7],
                len: 0,
            };
            let mut c = start;
            loop {
                match point_at(c) {
                    Some(Point::Spot(s)) => {
                        ray.spots[ray.len as usize] = s;
                        ray.len += 1;
                    }
                    end => return (ray, end),
                }
                c = step(c, d);
            }
        };
        let mask_of = |r: &Ray| r.spots().iter().fold(0u64, |m, s| m | s.bit());
        let rays: Vec<[Ray; 6]> = (0..SPOT_COUNT)
            .map(|s| Direction::ALL.map(|d| ray_from(spot_cube[s], d).0))
            .collect();

        // A line starts at a spot whose backward neighbour is a dot.
        let mut lines = Vec::new();
        for dir in [Direction::N, Direction::NE, Direction::SE] {
            for s in 0..SPOT_COUNT {
                if matches!(neighbour[s][dir.opposite().index()], Some(Point::Dot(_))) {
                    let ray = rays[s][dir.index()].clone();
                    let mask = mask_of(&ray);
                    lines.push(Line { dir, ray, mask });
                }
            }
        }
        assert_eq!(lines.len(), LINE_COUNT);
        let mut lines_of = [0u32; SPOT_COUNT];
        for (l, line) in lines.iter().enumerate() {
            for s in line.ray.spots() {
                lines_of[s.index()] |= 1 << l;
            }
        }

        let mut entries = Vec::new();
        let mut entries_from = vec![Vec::new(); DOT_COUNT];
        for (d, &dc) in dot_cube.iter().enumerate() {
            let mut from_here: Vec<Entry> = Vec::new();
            for dir in Direction::ALL {
                if let Some(Point::Spot(spot)) = point_at(step(dc, dir)) {
                    let (ray, end) = ray_from(step(dc, dir), dir);
                    let Some(Point::Dot(far_dot)) = end else {
                        unreachable!("every ray ends on a dot")
                    };
                    let mask = mask_of(&ray);
                    from_here.push(Entry {
                        dot: Dot(d as u8),
                        spot,
                        dir,
                        ray,
                        far_dot,
                        mask,
                    });
                }
            }
            from_here.sort_by_key(|e| e.spot);
            for e in from_here {
                entries_from[d].push(entries.len() as u8);
                entries.push(e);
            }
        }
        assert_eq!(entries.len(), ENTRY_COUNT);

        Geometry {
            spot_cube,
            spot_name,
            dot_name,
            neighbour,
            rays,
            lines,
            lines_of,
            entries,
            entries_from,
        }
    }

    /// The adjacent point of `spot` in direction `dir`.
    #[inline]
    pub fn neighbour(&self, spot: Spot, dir: Direction) -> Option<Point> {
        self.neighbour[spot.index()][dir.index()]
    }

    /// The spots from `spot` (included) along `dir` up to the rim.
    #[inline]
    pub fn ray(&self, spot: Spot, dir: Direction) -> &Ray {
        &self.rays[spot.index()][dir.index()]
    }

    /// The entry moves from `dot` (indices into `entries`).
    pub fn entries_from(&self, dot: Dot) -> &[u8] {
        &self.entries_from[dot.index()]
    }

    /// The entry from `dot` onto `spot`, if the two are adjacent.
    pub fn entry_index(&self, dot: Dot, spot: Spot) -> Option<usize> {
        self.entries_from(dot)
            .iter()
            .map(|&i| i as usize)
            .find(|&i| self.entries[i].spot == spot)
    }

    pub fn cube(&self, spot: Spot) -> (i8, i8, i8) {
        self.spot_cube[spot.index()]
    }
}

impl Spot {
    /// Every spot in index order.
    pub fn all() -> impl Iterator<Item = Spot> {
        (0..SPOT_COUNT as u8).map(Spot)
    }

    pub const fn from_index(i: usize) -> Option<Spot> {
        if i < SPOT_COUNT {
            Some(Spot(i as u8))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The spot with this official name (`e5`), if the name is a spot.
    pub fn from_name(name: &str) -> Option<Spot> {
        match Point::from_name(name)? {
            Point::Spot(s) => Some(s),
            Point::Dot(_) => None,
        }
    }

    /// The spots of a bit mask, in index order.
    pub fn iter_mask(mask: u64) -> impl Iterator<Item = Spot> {
        let mut m = mask;
        std::iter::from_fn(move || {
            if m == 0 {
                None
            } else {
                let s = m.trailing_zeros() as u8;
                m &= m - 1;
                Some(Spot(s))
            }
        })
    }
}

impl Dot {
    pub fn all() -> impl Iterator<Item = Dot> {
        (0..DOT_COUNT as u8).map(Dot)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_name(name: &str) -> Option<Dot> {
        match Point::from_name(name)? {
            Point::Dot(d) => Some(d),
            Point::Spot(_) => None,
        }
    }
}

impl Point {
    /// Reads an official point name (`a1` … `i5`, letters in either case).
    pub fn from_name(name: &str) -> Option<Point> {
        let mut chars = name.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !('a'..='i').contains(&letter) {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 1 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let col = letter as u8 - b'a';
        let n: u8 = digits.parse().ok()?;
        if n == 0 || n > column_len(col) {
            return None;
        }
        let g = geometry();
        if let Some(i) = g.spot_name.iter().position(|&p| p == (col, n)) {
            return Some(Point::Spot(Spot(i as u8)));
        }
        g.dot_name
            .iter()
            .position(|&p| p == (col, n))
            .map(|i| Point::Dot(Dot(i as u8)))
    }
}

fn write_name(f: &mut fmt::Formatter<'_>, (col, n): (u8, u8)) -> fmt::Result {
    write!(f, "{}{}", (b'a' + col) as char, n)
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_name(f, geometry().spot_name[self.index()])
    }
}

impl fmt::Debug for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Dot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_name(f, geometry().dot_name[self.index()])
    }
}

impl fmt::Debug for Dot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Point::Spot(s) => s.fmt(f),
            Point::Dot(d) => d.fmt(f),
        }
    }
}

/// Column (0 = a) and number of a point, for the printout.
pub(crate) fn point_name_parts(p: Point) -> (u8, u8) {
    let g = geometry();
    match p {
        Point::Spot(s) => g.spot_name[s.index()],
        Point::Dot(d) => g.dot_name[d.index()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_names() {
        let g = geometry();
        let names: Vec<String> = Spot::all().map(|s| s.to_string()).collect();
        assert_eq!(names.len(), 37);
        assert_eq!(names[0], "b2");
        assert_eq!(names[36], "h5");
        let dots: Vec<String> = Dot::all().map(|d| d.to_string()).collect();
        assert_eq!(
            dots.join(" "),
            "a1 a2 a3 a4 a5 b1 b6 c1 c7 d1 d8 e1 e9 f1 f8 g1 g7 h1 h6 i1 i2 i3 i4 i5"
        );
        for s in Spot::all() {
            assert_eq!(Spot::from_name(&s.to_string()), Some(s));
            assert_eq!(g.lines_of[s.index()].count_ones(), 3);
        }
        assert_eq!(Spot::from_name("E5"), Spot::from_name("e5"));
        for bad in ["", "e", "e0", "e10", "j1", "a6", "e55", "5e", "e-1"] {
            assert_eq!(Point::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn cube_formula_examples() {
        let g = geometry();
        let e5 = Spot::from_name("e5").unwrap();
        assert_eq!(g.cube(e5), (0, 0, 0));
        let f5 = Spot::from_name("f5").unwrap();
        let f4 = Spot::from_name("f4").unwrap();
        assert_eq!(g.neighbour(e5, Direction::NE), Some(Point::Spot(f5)));
        assert_eq!(g.neighbour(e5, Direction::SE), Some(Point::Spot(f4)));
    }

    #[test]
    fn lines_have_the_published_lengths() {
        let g = geometry();
        let mut lens: Vec<u8> = g.lines.iter().map(|l| l.ray.len).collect();
        lens.sort_unstable();
        let mut expected = [4, 4, 5, 5, 6, 6, 7].repeat(3);
        expected.sort_unstable();
        assert_eq!(lens, expected);
        let corners = Dot::all().filter(|&d| g.entries_from(d).len() == 1);
        let corner_names: Vec<String> = corners.map(|d| d.to_string()).collect();
        assert_eq!(corner_names.join(" "), "a1 a5 e1 e9 i1 i5");
    }
}
