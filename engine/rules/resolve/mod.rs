//! Entity resolution and the auditor's views over the rule library's results.
//!
//! The decisions live in `stdlib/identity.dl` (and the other stdlib rule files); this module
//! measures names for those rules ([`names`], bound as host functors) and reads what the
//! rules derived back out for `tg resolve`, `tg contradictions`, `tg timeline`, `tg path`
//! and `tg predict`.

pub mod entity;
pub mod findings;
pub mod modality;
pub use tg_text::names;
pub mod predict;
pub mod render;
pub mod standalone;
pub mod views;
