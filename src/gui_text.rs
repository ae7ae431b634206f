//! Text and paths as GUIs send them. Chinese Windows GUIs write their
//! commands in the system's code page, GBK (code page 936), not UTF-8: a
//! `setoption bookfiles` naming a folder 象棋 arrives as GBK bytes. A line
//! that is UTF-8 is taken as it is; any other is read as GBK, whose decoder
//! replaces what GBK cannot read either. On Windows the text is the path (its
//! file functions take Unicode); on Unix a file made by such a GUI, or
//! copied from it, has those GBK bytes for its name, and [`on_disk`] finds it.

use std::path::PathBuf;

/// A line of input as text: UTF-8 as it is, anything else read as GBK.
pub fn decode_line(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => encoding_rs::GBK
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

/// The file that `path`, a value a GUI sent, names: the path itself, or on
/// Unix, when no file has that name and the name has characters beyond
/// ASCII, the file whose name is the path's GBK bytes, if there is one.
pub fn on_disk(path: &str) -> PathBuf {
    let plain = PathBuf::from(path);
    #[cfg(unix)]
    if !path.is_ascii() && std::fs::symlink_metadata(&plain).is_err() {
        use std::os::unix::ffi::OsStrExt;
        let (bytes, _, unmappable) = encoding_rs::GBK.encode(path);
        let gbk = PathBuf::from(std::ffi::OsStr::from_bytes(&bytes));
        if !unmappable && std::fs::symlink_metadata(&gbk).is_ok() {
            return gbk;
        }
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 象棋 in GBK.
    const XIANGQI_GBK: &[u8] = &[0xcf, 0xf3, 0xc6, 0xe5];

    #[test]
    fn utf8_lines_stay_and_others_are_read_as_gbk() {
        assert_eq!(
            decode_line("setoption bookfiles 象棋/a.dat".as_bytes()),
            "setoption bookfiles 象棋/a.dat"
        );
        let mut line = b"setoption bookfiles C:\\".to_vec();
        line.extend_from_slice(XIANGQI_GBK);
        line.extend_from_slice(b"\\book.dat");
        assert_eq!(decode_line(&line), "setoption bookfiles C:\\象棋\\book.dat");
        // Bytes that are neither are replaced, never a panic.
        assert_eq!(decode_line(&[b'x', 0xff, b'y']), "x\u{fffd}y");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_named_in_gbk_bytes_is_found_from_its_text() {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::env::temp_dir().join(format!("chariot-gbk-{}", std::process::id()));
        let folder = dir.join(std::ffi::OsStr::from_bytes(XIANGQI_GBK));
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        std::fs::write(folder.join("book.dat"), b"x").expect("a file");
        let text = format!("{}/象棋/book.dat", dir.display());
        assert_eq!(on_disk(&text), folder.join("book.dat"));
        // A name that exists as written, or exists in neither form, stays.
        let missing = format!("{}/象棋/none.dat", dir.display());
        assert_eq!(on_disk(&missing), PathBuf::from(&missing));
        assert_eq!(
            on_disk("books/chariot.dat"),
            PathBuf::from("books/chariot.dat")
        );
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }
}
