//! Writing an output file (`tg export -o`, `tg audit emit -o`) without surprises: never
//! into the store's own folder, never over an existing file without `--force`, never
//! through a symbolic link (with `--force` the link itself is replaced).

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Why an output file was not written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The path lies inside the store's folder (writing there would break the store).
    #[error("refusing to write {}: it is inside the store {}", path.display(), store.display())]
    InsideStore {
        /// The output path.
        path: PathBuf,
        /// The store.
        store: PathBuf,
    },
    /// The path exists and `--force` was not given.
    #[error("{} exists; pass --force to overwrite it", path.display())]
    Exists {
        /// The output path.
        path: PathBuf,
    },
    /// The path is a symbolic link and `--force` was not given.
    #[error("{} is a symbolic link; pass --force to replace the link (its target is never written)", path.display())]
    Link {
        /// The output path.
        path: PathBuf,
    },
    /// The file system refused.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The output path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// Where `path` would land once its folder's links are resolved (the file name kept as is).
fn resolved(path: &Path) -> PathBuf {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let dir = parent.canonicalize().unwrap_or_else(|_| parent.to_path_buf());
    match path.file_name() {
        Some(n) => dir.join(n),
        None => dir,
    }
}

/// Writes `data` to `path` under the rules of the module doc. A new file is created with
/// `O_EXCL` (so a link planted after the checks is not followed either); `force` writes a
/// temporary file beside it and renames it over the old one.
pub fn write_output(store: &Path, path: &Path, data: &[u8], force: bool) -> Result<(), OutputError> {
    let io = |source| OutputError::Io { path: path.to_path_buf(), source };
    let store_dir = store.canonicalize().unwrap_or_else(|_| store.to_path_buf());
    let target = resolved(path);
    if target.starts_with(&store_dir) {
        return Err(OutputError::InsideStore { path: path.to_path_buf(), store: store.to_path_buf() });
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() && !force => Err(OutputError::Link { path: path.to_path_buf() }),
        Ok(_) if !force => Err(OutputError::Exists { path: path.to_path_buf() }),
        Ok(m) if m.is_dir() => Err(io(std::io::Error::other("it is a folder"))),
        Ok(_) => {
            let tmp = target.with_file_name(format!(".{}.tg-tmp-{}", target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), std::process::id()));
            let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp).map_err(io)?;
            f.write_all(data).map_err(io)?;
            drop(f);
            std::fs::rename(&tmp, path).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                io(e)
            })
        }
        Err(_) => {
            let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(io)?;
            f.write_all(data).map_err(io)
        }
    }
}
