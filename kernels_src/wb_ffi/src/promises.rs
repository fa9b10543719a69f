//! The promises a port's manifest makes about its tensors, checked on every call before
//! anything reaches CUDA (no device is opened, nothing is launched when one is broken).
//!
//! The manifest is the port's own `port.toml`, compiled into the library by `wb_ffi::port!`;
//! its `[tensors.NAME]` tables come in the C ABI's tensor order, and each may say:
//!
//! ```toml
//! [tensors.x]
//! rank = 2
//! dtypes = ["f32", "f16", "bf16"]
//! unit_stride = [1]                    # dims whose stride is 1 (a dim of extent 1 may have any)
//! div_by = ["shape[1] 16", "base 16"]  # facts the kernel assumes: shape[d] and stride[d] in
//!                                      # elements, base in bytes
//! strides_read = true                  # the kernel reads the view's strides by position: no
//!                                      # stride but the last may be 1 (cutile makes a unit
//!                                      # stride static and drops it from the view's strides)
//! list = true                          # a list of arrays: every item is checked against the
//!                                      # table and named `x[i]` (lists.rs)
//! ```
//!
//! With lists, the call's tensors are the plain tables' tensors first (in order), then each
//! list's items (in the lists' order).
//!
//! The workbench's diff reads the same file to know which of a port's facts are checked.

use crate::launch::{Error, WbTensor, dtype_name, set_error};

#[derive(Default)]
struct Rule {
    name: String,
    rank: Option<i32>,
    dtypes: Vec<String>,
    unit_stride: Vec<usize>,
    div_by: Vec<(String, i64)>,
    strides_read: bool,
    list: bool,
}

fn strings(value: &str) -> Vec<String> {
    value.trim().trim_start_matches('[').trim_end_matches(']').split(',')
        .map(|s| s.trim().trim_matches('"').to_string()).filter(|s| !s.is_empty()).collect()
}

/// The `[tensors.*]` tables of a port.toml, in order (a small subset of TOML: one
/// `key = value` per line, arrays on one line).
fn rules(manifest: &str) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    let mut in_tensor = false;
    for raw in manifest.lines() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            let table = line.trim_matches(|c| c == '[' || c == ']');
            in_tensor = table.starts_with("tensors.");
            if in_tensor {
                out.push(Rule { name: table["tensors.".len()..].to_string(), ..Rule::default() });
            }
            continue;
        }
        let (Some(rule), Some((key, value))) = (out.last_mut().filter(|_| in_tensor), line.split_once('='))
        else { continue };
        match key.trim() {
            "rank" => rule.rank = value.trim().parse().ok(),
            "dtypes" => rule.dtypes = strings(value),
            "unit_stride" => rule.unit_stride = strings(value).iter().filter_map(|s| s.parse().ok()).collect(),
            "strides_read" => rule.strides_read = value.trim() == "true",
            "list" => rule.list = value.trim() == "true",
            "div_by" => rule.div_by = strings(value).iter().filter_map(|s| {
                let (what, n) = s.split_once(' ')?;
                Some((what.to_string(), n.trim().parse().ok()?))
            }).collect(),
            _ => {}
        }
    }
    out
}

/// How many entries a port.toml's top-level `programs = [..]` names (0 without one).
pub fn other_programs(manifest: &str) -> usize {
    manifest.lines()
        .map(|raw| raw.split('#').next().unwrap_or("").trim())
        .take_while(|line| !line.starts_with('['))
        .find_map(|line| line.split_once('=').filter(|(key, _)| key.trim() == "programs"))
        .map_or(0, |(_, value)| strings(value).len())
}

fn broken(op: &str, name: &str, rule: &Rule, what: String, promise: String, key: &str) -> Error {
    set_error(Error::BadArgument, format!(
        "{op}: {name}: {what} breaks the port's promise {promise} (port.toml [tensors.{}] {key}); \
         nothing was launched", rule.name))
}

fn check_one(op: &str, rule: &Rule, t: &WbTensor) -> Result<(), Error> {
    check_named(op, rule, t, &rule.name)
}

/// One item of a list: its rule's checks, the item named `NAME[i]`, and its extents and
/// strides within i32 (the kernel truncates the table's i64 words to i32, stating no wrap).
fn check_item(op: &str, rule: &Rule, t: &WbTensor, index: usize) -> Result<(), Error> {
    let name = format!("{}[{index}]", rule.name);
    check_named(op, rule, t, &name)?;
    let n = t.ndim.clamp(0, crate::launch::MAX_RANK as i32) as usize;
    if let Some(d) = (0..n).find(|&d| t.shape[d] > i32::MAX as i64 || t.strides[d] > i32::MAX as i64) {
        return Err(set_error(Error::BadArgument, format!(
            "{op}: {name}: extent {} or stride {} in dim {d} is over i32; the port reads a list \
             item's extents and strides as i32 (port.toml [tensors.{}] list); nothing was \
             launched", t.shape[d], t.strides[d], rule.name)));
    }
    Ok(())
}

/// `t` against `rule`; a broken promise names the argument `name` and the table it is in.
fn check_named(op: &str, rule: &Rule, t: &WbTensor, name: &str) -> Result<(), Error> {
    if let Some(rank) = rule.rank {
        if t.ndim != rank {
            return Err(broken(op, name, rule, format!("rank {}", t.ndim), format!("`rank {rank}`"), "rank"));
        }
    }
    let dtype = dtype_name(t.dtype);
    if !rule.dtypes.is_empty() && !rule.dtypes.iter().any(|d| d == dtype) {
        return Err(broken(op, name, rule, format!("dtype {dtype} (code {})", t.dtype),
                          format!("`dtype in {:?}`", rule.dtypes), "dtypes"));
    }
    let n = t.ndim.clamp(0, crate::launch::MAX_RANK as i32) as usize;
    if let Some(d) = (0..n).find(|&d| t.shape[d] < 0 || t.strides[d] < 0) {
        // cutile's entry assumes bounded<0, ?> of every extent and stride
        return Err(set_error(Error::BadArgument, format!(
            "{op}: {name}: negative extent or stride in dim {d} (extent {}, stride {}); the port \
             assumes none; nothing was launched", t.shape[d], t.strides[d])));
    }
    for &dim in &rule.unit_stride {
        if dim < n && t.shape[dim] > 1 && t.strides[dim] != 1 {
            return Err(broken(op, name, rule, format!("stride {} in dim {dim}", t.strides[dim]),
                              format!("`unit stride in dim {dim}`"), "unit_stride"));
        }
    }
    if rule.strides_read {
        if let Some(d) = (0..n.saturating_sub(1)).find(|&d| t.strides[d] == 1) {
            return Err(set_error(Error::BadArgument, format!(
                "{op}: {name}: stride 1 in dim {d}, not the last: the port reads this tensor's \
                 strides by position, and cutile makes a unit stride static and drops it from \
                 them (port.toml [tensors.{}] strides_read); pass a tensor whose strides \
                 before the last dim are not 1 (an extent-1 dim may take any stride); nothing \
                 was launched", rule.name)));
        }
    }
    for (what, divisor) in &rule.div_by {
        let value = match what.as_str() {
            "base" => Some(t.ptr as i64),
            w => w.strip_suffix(']').and_then(|w| w.split_once('[')).and_then(|(kind, d)| {
                let d: usize = d.parse().ok().filter(|&d| d < n)?;
                match kind { "shape" => Some(t.shape[d]), "stride" => Some(t.strides[d]), _ => None }
            }),
        };
        match value {
            Some(v) if *divisor > 0 && v % divisor != 0 => {
                let unit = if what == "base" { "bytes" } else { "elements" };
                return Err(broken(op, name, rule, format!("{what} = {v}"),
                                  format!("`{what} div_by<{divisor}>` ({unit})"), "div_by"));
            }
            None => return Err(broken(op, name, rule, format!("{what} (not a dim of this tensor)"),
                                      format!("`{what} div_by<{divisor}>`"), "div_by")),
            _ => {}
        }
    }
    Ok(())
}

/// Check every tensor of a C call against the manifest's promises. Counts and null pointers
/// are left to `Call::new`, which reports them.
///
/// # Safety
/// `tensors` must be valid for `n_tensors` descriptors (or null).
pub unsafe fn check(op: &str, manifest: &str, tensors: *const WbTensor, n_tensors: i32) -> Result<(), Error> {
    unsafe { check_with_lists(op, manifest, tensors, n_tensors, &[]) }
}

/// `check` for a port with lists: `lengths` are the lists' lengths, in the manifest's order
/// of its `list = true` tables; the plain tables' tensors come first, then each list's items.
///
/// # Safety
/// `tensors` must be valid for `n_tensors` descriptors (or null).
pub unsafe fn check_with_lists(op: &str, manifest: &str, tensors: *const WbTensor, n_tensors: i32,
                               lengths: &[usize]) -> Result<(), Error> {
    let rules = rules(manifest);
    let (lists, plain): (Vec<&Rule>, Vec<&Rule>) = rules.iter().partition(|r| r.list);
    if lists.len() != lengths.len() {
        return Err(set_error(Error::BadArgument, format!(
            "{op}: the port takes {} lists, the call gave {} lengths; nothing was launched",
            lists.len(), lengths.len())));
    }
    let want = plain.len() + lengths.iter().sum::<usize>();
    if tensors.is_null() || n_tensors < 0 || n_tensors as usize != want {
        return Ok(());
    }
    let tensors = unsafe { std::slice::from_raw_parts(tensors, n_tensors as usize) };
    for (rule, t) in plain.iter().zip(tensors) {
        check_one(op, rule, t)?;
    }
    let mut next = plain.len();
    for (rule, &len) in lists.iter().zip(lengths) {
        for (i, t) in tensors[next..next + len].iter().enumerate() {
            check_item(op, rule, t, i)?;
        }
        next += len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "module = \"m\"\n[tensors.x]\nrank = 2\ndtypes = [\"f32\"]\n\
        unit_stride = [1]   # the inner dim\ndiv_by = [\"shape[1] 16\", \"base 16\"]\n[entries]\n\"A=1\" = \"e\"\n";

    fn tensor(shape: [i64; 2], strides: [i64; 2], ptr: u64) -> WbTensor {
        WbTensor { ptr, ndim: 2, shape: [shape[0], shape[1], 0, 0, 0, 0], strides: [strides[0], strides[1], 0, 0, 0, 0], dtype: 0, device: 0 }
    }

    #[test]
    fn reads_the_tensor_tables_in_order() {
        let r = rules(MANIFEST);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].rank, r[0].unit_stride.clone()), (Some(2), vec![1]));
        assert_eq!(r[0].div_by, vec![("shape[1]".to_string(), 16), ("base".to_string(), 16)]);
    }

    #[test]
    fn counts_the_other_programs_named_before_the_first_table() {
        assert_eq!(other_programs(MANIFEST), 0);
        let two = "entry = \"e\"\n# programs = [\"old\"]\nprograms = [\"a\", \"b\"]  # tune's knob\n[tensors.x]\n";
        assert_eq!(other_programs(two), 2);
        assert_eq!(other_programs("[tensors.x]\nprograms = [\"not top level\"]\n"), 0);
    }

    #[test]
    fn each_broken_promise_names_the_argument_and_the_fact() {
        let r = &rules(MANIFEST)[0];
        assert!(check_one("op", r, &tensor([4, 32], [32, 1], 256)).is_ok());
        assert!(check_one("op", r, &tensor([4, 32], [64, 2], 256)).is_err());
        assert!(crate::launch::last_error().contains("x: stride 2 in dim 1 breaks the port's promise `unit stride in dim 1`"));
        assert!(check_one("op", r, &tensor([4, 33], [33, 1], 256)).is_err());
        assert!(crate::launch::last_error().contains("shape[1] = 33 breaks the port's promise `shape[1] div_by<16>`"));
        assert!(check_one("op", r, &tensor([4, 32], [32, 1], 260)).is_err());
        assert!(crate::launch::last_error().contains("base = 260"));
    }

    #[test]
    fn a_list_item_is_checked_and_named_by_its_index() {
        let manifest = "[tensors.w]\nrank = 1\n[tensors.As]\nlist = true\nrank = 2\n\
            unit_stride = [1]\ndiv_by = [\"shape[0] 16\", \"base 16\"]\n";
        let plain = WbTensor { ptr: 256, ndim: 1, shape: [8, 0, 0, 0, 0, 0], strides: [1, 0, 0, 0, 0, 0], dtype: 0, device: 0 };
        let items = [plain, tensor([32, 16], [16, 1], 512), tensor([33, 16], [16, 1], 1024)];
        let call = |n: usize, lengths: &[usize]| unsafe {
            check_with_lists("op", manifest, items.as_ptr(), n as i32, lengths) };
        assert!(call(2, &[1]).is_ok());
        assert!(call(3, &[2]).is_err());
        let message = crate::launch::last_error();
        assert!(message.contains("op: As[1]: shape[0] = 33 breaks the port's promise `shape[0] div_by<16>`"), "{message}");
        assert!(message.contains("[tensors.As] div_by"), "{message}");
        let huge = [plain, tensor([1 << 32, 16], [16, 1], 512)];
        assert!(unsafe { check_with_lists("op", manifest, huge.as_ptr(), 2, &[1]) }.is_err());
        assert!(crate::launch::last_error().contains("As[0]: extent 4294967296 or stride 16 in dim 0 is over i32"));
        assert!(call(2, &[]).is_err());
        assert!(crate::launch::last_error().contains("takes 1 lists, the call gave 0 lengths"));
    }

    #[test]
    fn a_port_reading_strides_refuses_a_unit_stride_before_the_last_dim() {
        let manifest = "[tensors.lse]\nrank = 2\nstrides_read = true\n";
        let r = &rules(manifest)[0];
        assert!(r.strides_read);
        assert!(check_one("op", r, &tensor([32, 8], [8, 1], 256)).is_ok());
        // [32, 1] contiguous: dim 0's stride is 1, which cutile would make static
        assert!(check_one("op", r, &tensor([32, 1], [1, 1], 256)).is_err());
        assert!(crate::launch::last_error().contains("lse: stride 1 in dim 0, not the last"));
        assert!(check_one("op", &rules("[tensors.lse]\nrank = 2\n")[0],
                          &tensor([32, 1], [1, 1], 256)).is_ok());
    }
}
