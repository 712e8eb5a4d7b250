//! A small fully connected network for a materials-property regression, written the way a Rust user
//! writes one without a framework: `Layer { weights: Vec<Vec<f64>>, bias: Vec<f64>, act: Activation }`,
//! a `Network { layers: Vec<Layer> }` built from a layer-size list by unpacking a flat parameter slice
//! (`split_at`, `chunks`, `to_vec`), forward passes as iterator chains (`iter().zip().map().sum()`),
//! activations by `match` on an enum, standardization of the inputs with statistics from `fold`,
//! a mean-squared loss with an L2 penalty by `flat_map`, a Huber variant picked by a `Loss` enum,
//! and a validation split from `partition` on the sample index.

#[derive(Clone, Copy, Debug)]
enum Activation {
    Tanh,
    Softplus,
    Identity,
}

impl Activation {
    fn apply(self, z: f64) -> f64 {
        match self {
            Activation::Tanh => z.tanh(),
            Activation::Softplus => {
                if z > 30.0 {
                    z
                } else {
                    z.exp().ln_1p()
                }
            }
            Activation::Identity => z,
        }
    }
}

#[derive(Debug)]
struct Layer {
    weights: Vec<Vec<f64>>,
    bias: Vec<f64>,
    act: Activation,
}

impl Layer {
    fn forward(&self, x: &[f64]) -> Vec<f64> {
        self.weights
            .iter()
            .zip(self.bias.iter())
            .map(|(row, b)| row.iter().zip(x).map(|(w, xi)| w * xi).sum::<f64>() + b)
            .map(|z| self.act.apply(z))
            .collect()
    }
}

struct Network {
    layers: Vec<Layer>,
}

impl Network {
    fn from_flat(sizes: &[usize], acts: &[Activation], params: &[f64]) -> Network {
        let mut rest = params;
        let mut layers = Vec::with_capacity(sizes.len() - 1);
        for (w, act) in sizes.windows(2).zip(acts) {
            let (n_in, n_out) = (w[0], w[1]);
            let (wflat, tail) = rest.split_at(n_in * n_out);
            let (b, tail) = tail.split_at(n_out);
            rest = tail;
            layers.push(Layer {
                weights: wflat.chunks(n_in).map(|c| c.to_vec()).collect(),
                bias: b.to_vec(),
                act: *act,
            });
        }
        Network { layers }
    }

    fn predict(&self, x: &[f64]) -> f64 {
        let out = self.layers.iter().fold(x.to_vec(), |h, layer| layer.forward(&h));
        out[0]
    }

    fn l2(&self) -> f64 {
        self.layers
            .iter()
            .flat_map(|l| l.weights.iter().flat_map(|row| row.iter()))
            .map(|w| w * w)
            .sum()
    }
}

#[derive(Clone, Copy)]
enum Loss {
    Squared,
    Huber(f64),
}

fn loss(kind: Loss, r: f64) -> f64 {
    match kind {
        Loss::Squared => 0.5 * r * r,
        Loss::Huber(delta) if r.abs() <= delta => 0.5 * r * r,
        Loss::Huber(delta) => delta * (r.abs() - 0.5 * delta),
    }
}

struct Standardizer {
    mean: Vec<f64>,
    std: Vec<f64>,
}

impl Standardizer {
    fn fit(rows: &[Vec<f64>]) -> Standardizer {
        let d = rows[0].len();
        let n = rows.len() as f64;
        let mean: Vec<f64> = (0..d).map(|j| rows.iter().fold(0.0, |s, r| s + r[j]) / n).collect();
        let std = (0..d)
            .map(|j| (rows.iter().fold(0.0, |s, r| s + (r[j] - mean[j]).powi(2)) / n).sqrt().max(1e-12))
            .collect();
        Standardizer { mean, std }
    }
    fn transform(&self, x: &[f64]) -> Vec<f64> {
        x.iter().zip(&self.mean).zip(&self.std).map(|((v, m), s)| (v - m) / s).collect()
    }
}

/// params: the network's flat parameters; features: n x d row-major; targets: n values.
#[no_mangle]
pub unsafe extern "C" fn nn_objective(params: *const f64, nparams: usize, features: *const f64, targets: *const f64,
                                      n: usize, d: usize) -> f64 {
    let p = std::slice::from_raw_parts(params, nparams);
    let xs = std::slice::from_raw_parts(features, n * d);
    let ys = std::slice::from_raw_parts(targets, n);
    let sizes = [d, 6, 4, 1];
    let acts = [Activation::Tanh, Activation::Softplus, Activation::Identity];
    let net = Network::from_flat(&sizes, &acts, p);
    let rows: Vec<Vec<f64>> = xs.chunks(d).map(|c| c.to_vec()).collect();
    let scaler = Standardizer::fit(&rows);
    let (train, valid): (Vec<usize>, Vec<usize>) = (0..n).partition(|i| i % 5 != 0);
    let mse = |idx: &[usize], kind: Loss| {
        idx.iter().map(|&i| loss(kind, net.predict(&scaler.transform(&rows[i])) - ys[i])).sum::<f64>()
            / idx.len() as f64
    };
    mse(&train, Loss::Squared) + 0.5 * mse(&valid, Loss::Huber(0.3)) + 1e-3 * net.l2()
}
