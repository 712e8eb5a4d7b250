//! A crate using std: Vec, String, HashMap, iterators, closures, Box<dyn Trait>,
//! format! and Result-based error handling.
use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub name: String,
    pub values: Vec<f64>,
}

#[derive(Debug)]
pub enum StatsError {
    Empty(String),
    NonFinite { name: String, index: usize },
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::Empty(name) => write!(f, "sample {name} is empty"),
            StatsError::NonFinite { name, index } => write!(f, "sample {name}: value {index} is not finite"),
        }
    }
}

pub trait Reducer {
    fn reduce(&self, xs: &[f64]) -> f64;
}

struct Mean;
struct Norm(f64);

impl Reducer for Mean {
    fn reduce(&self, xs: &[f64]) -> f64 {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

impl Reducer for Norm {
    fn reduce(&self, xs: &[f64]) -> f64 {
        xs.iter().map(|x| x.abs().powf(self.0)).sum::<f64>().powf(1.0 / self.0)
    }
}

pub fn summarize(samples: &[Sample]) -> Result<HashMap<String, Vec<f64>>, StatsError> {
    let reducers: Vec<Box<dyn Reducer>> = vec![Box::new(Mean), Box::new(Norm(2.0)), Box::new(Norm(1.5))];
    let mut out = HashMap::new();
    for s in samples {
        if s.values.is_empty() {
            return Err(StatsError::Empty(s.name.clone()));
        }
        if let Some(index) = s.values.iter().position(|v| !v.is_finite()) {
            return Err(StatsError::NonFinite { name: s.name.clone(), index });
        }
        out.insert(s.name.clone(), reducers.iter().map(|r| r.reduce(&s.values)).collect());
    }
    Ok(out)
}

pub fn describe(samples: &[Sample]) -> String {
    match summarize(samples) {
        Ok(map) => {
            let mut keys: Vec<_> = map.keys().cloned().collect();
            keys.sort();
            keys.iter().map(|k| format!("{k}: {:.3?}", map[k])).collect::<Vec<_>>().join("; ")
        }
        Err(e) => format!("error: {e}"),
    }
}

#[no_mangle]
pub extern "C" fn rs_std_norm(x: *const f64, n: usize, p: f64) -> f64 {
    let xs = unsafe { std::slice::from_raw_parts(x, n) }.to_vec();
    Norm(p).reduce(&xs)
}

#[no_mangle]
pub extern "C" fn rs_std_report(n: usize) -> usize {
    let samples: Vec<Sample> = (0..n)
        .map(|i| Sample { name: format!("s{i}"), values: (0..=i).map(|j| (j as f64).sin()).collect() })
        .collect();
    let text = describe(&samples);
    println!("{text}");
    text.len()
}
