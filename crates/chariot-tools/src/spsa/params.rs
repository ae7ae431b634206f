//! What a run tunes: by default every tunable of the engine's search
//! (`chariot::search::params::TUNABLES`, started at its value), or the lines
//! of a file in OpenBench's format; `--only` narrows either to a subset.
//!
//! OpenBench's format is one parameter a line,
//! `NAME, int, START, MIN, MAX, C_END, R_END`, with `#` starting a comment.
//! START may have decimals (a run can go on from another run's θ); the
//! engine's options are spin options, so MIN and MAX are whole numbers and
//! the type is always `int`.

use chariot::search::params::TUNABLES;

/// R_END of the tunables when no file gives one: OpenBench's default.
pub const DEFAULT_R_END: f64 = 0.002;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The tunable's name, which is also its option's.
    pub name: String,
    pub start: f64,
    pub min: i32,
    pub max: i32,
    /// The step θ is probed with at the end of the run (c_N).
    pub c_end: f64,
    /// a_N / c_N², the learning rate at the end of the run.
    pub r_end: f64,
}

impl Param {
    /// Checks the numbers of a parameter, naming what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let name = &self.name;
        if self.min >= self.max {
            return Err(format!(
                "{name}: min {} is not below max {}",
                self.min, self.max
            ));
        }
        if !(self.start >= f64::from(self.min) && self.start <= f64::from(self.max)) {
            return Err(format!(
                "{name}: start {} is outside {}..{}",
                self.start, self.min, self.max
            ));
        }
        if !(self.c_end.is_finite() && self.c_end > 0.0) {
            return Err(format!("{name}: c_end {} is not positive", self.c_end));
        }
        if !(self.r_end.is_finite() && self.r_end > 0.0) {
            return Err(format!("{name}: r_end {} is not positive", self.r_end));
        }
        Ok(())
    }
}

/// Every tunable of the search, started at its value, with `r_end`.
pub fn from_tunables(r_end: f64) -> Vec<Param> {
    TUNABLES
        .iter()
        .map(|t| Param {
            name: t.name.to_string(),
            start: f64::from(t.value),
            min: t.min,
            max: t.max,
            c_end: t.c_end,
            r_end,
        })
        .collect()
}

/// Refuses a name that is not a tunable of the search.
fn known(name: &str) -> Result<(), String> {
    if TUNABLES.iter().any(|t| t.name == name) {
        Ok(())
    } else {
        Err(format!(
            "unknown parameter '{name}' (not a tunable of src/search/params.rs)"
        ))
    }
}

/// Parses a file in OpenBench's format; `source` names it in errors.
pub fn parse_file(text: &str, source: &str) -> Result<Vec<Param>, String> {
    let mut params: Vec<Param> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = format!("{source}:{}", i + 1);
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let fields: Vec<&str> = body.split(',').map(str::trim).collect();
        let [name, kind, start, min, max, c_end, r_end] = fields[..] else {
            return Err(format!(
                "{at}: expected NAME, int, START, MIN, MAX, C_END, R_END, not {} field(s)",
                fields.len()
            ));
        };
        if kind != "int" {
            return Err(format!(
                "{at}: {name}: type '{kind}': the engine's options take whole numbers, so only int"
            ));
        }
        let number = |what: &str, text: &str| -> Result<f64, String> {
            text.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("{at}: {name}: {what} '{text}' is not a number"))
        };
        let whole = |what: &str, text: &str| -> Result<i32, String> {
            text.parse::<i32>()
                .map_err(|_| format!("{at}: {name}: {what} '{text}' is not a whole number"))
        };
        known(name).map_err(|e| format!("{at}: {e}"))?;
        if params.iter().any(|p| p.name == name) {
            return Err(format!("{at}: {name} is given twice"));
        }
        let param = Param {
            name: name.to_string(),
            start: number("start", start)?,
            min: whole("min", min)?,
            max: whole("max", max)?,
            c_end: number("c_end", c_end)?,
            r_end: number("r_end", r_end)?,
        };
        param.check().map_err(|e| format!("{at}: {e}"))?;
        params.push(param);
    }
    if params.is_empty() {
        return Err(format!("{source}: no parameter in it"));
    }
    Ok(params)
}

/// Keeps the parameters named in `only` (all of them when it is empty), in
/// their own order.
pub fn select(params: Vec<Param>, only: &[String]) -> Result<Vec<Param>, String> {
    if only.is_empty() {
        return Ok(params);
    }
    for name in only {
        if !params.iter().any(|p| &p.name == name) {
            known(name).map_err(|e| format!("--only: {e}"))?;
            return Err(format!("--only: {name} is not among the parameters given"));
        }
    }
    Ok(params
        .into_iter()
        .filter(|p| only.contains(&p.name))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tunables_are_the_default() {
        let all = from_tunables(DEFAULT_R_END);
        assert_eq!(all.len(), TUNABLES.len());
        let razor = all.iter().find(|p| p.name == "razor_base").unwrap();
        assert_eq!(
            (razor.start, razor.min, razor.max, razor.c_end, razor.r_end),
            (200.0, 0, 600, 20.0, 0.002)
        );
        for p in &all {
            p.check().unwrap();
        }
    }

    #[test]
    fn openbench_files() {
        let text = "# name, type, start, min, max, c_end, r_end\n\
                    razor_base, int, 187.5, 0, 600, 20, 0.002   # from an earlier run\n\
                    \n\
                    lmr_pv,int,1,0,3,0.5,0.0025\n";
        let params = parse_file(text, "p.txt").unwrap();
        assert_eq!(
            params,
            vec![
                Param {
                    name: "razor_base".into(),
                    start: 187.5,
                    min: 0,
                    max: 600,
                    c_end: 20.0,
                    r_end: 0.002
                },
                Param {
                    name: "lmr_pv".into(),
                    start: 1.0,
                    min: 0,
                    max: 3,
                    c_end: 0.5,
                    r_end: 0.0025
                },
            ]
        );
        for (line, needle) in [
            ("razor_base, int, 200, 0, 600, 20", "p.txt:1: expected NAME"),
            ("razor_base, float, 200, 0, 600, 20, 0.002", "only int"),
            (
                "razor_bass, int, 200, 0, 600, 20, 0.002",
                "unknown parameter 'razor_bass'",
            ),
            (
                "razor_base, int, x, 0, 600, 20, 0.002",
                "start 'x' is not a number",
            ),
            ("razor_base, int, 200, 0, 600.5, 20, 0.002", "max '600.5'"),
            ("razor_base, int, 700, 0, 600, 20, 0.002", "outside 0..600"),
            ("razor_base, int, 200, 600, 0, 20, 0.002", "not below max"),
            (
                "razor_base, int, 200, 0, 600, 0, 0.002",
                "c_end 0 is not positive",
            ),
            (
                "razor_base, int, 200, 0, 600, 20, -1",
                "r_end -1 is not positive",
            ),
            ("razor_base, int, 200, 0, 600, 20, NaN", "is not a number"),
            ("# nothing", "no parameter"),
        ] {
            let e = parse_file(line, "p.txt").unwrap_err();
            assert!(e.contains(needle), "{line}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let twice = "lmr_pv, int, 1, 0, 3, 0.5, 0.002\nlmr_pv, int, 2, 0, 3, 0.5, 0.002";
        assert!(parse_file(twice, "p.txt")
            .unwrap_err()
            .starts_with("p.txt:2: lmr_pv is given twice"));
    }

    #[test]
    fn only_narrows_and_refuses_unknown_names() {
        let names = |v: Vec<Param>| v.into_iter().map(|p| p.name).collect::<Vec<_>>();
        let only = |s: &str| s.split(',').map(String::from).collect::<Vec<_>>();
        let some = select(from_tunables(0.002), &only("chase_ply,razor_base")).unwrap();
        assert_eq!(names(some), ["razor_base", "chase_ply"]);
        assert_eq!(
            select(from_tunables(0.002), &[]).unwrap().len(),
            TUNABLES.len()
        );
        let e = select(from_tunables(0.002), &only("razor_base,rzor")).unwrap_err();
        assert_eq!(
            e,
            "--only: unknown parameter 'rzor' (not a tunable of src/search/params.rs)"
        );
        let file = parse_file("lmr_pv, int, 1, 0, 3, 0.5, 0.002", "p").unwrap();
        let e = select(file, &only("razor_base")).unwrap_err();
        assert_eq!(e, "--only: razor_base is not among the parameters given");
    }
}
