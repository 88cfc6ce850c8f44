//! openCypher's temporal values (openCypher 9 CIP2015-08-06 "Date and time"): date,
//! local time, time, local datetime, datetime and duration — construction from strings
//! and maps, selection from other temporals, truncation, accessors, comparison,
//! arithmetic and `duration.between`. Calendar arithmetic is the proleptic Gregorian
//! calendar on day numbers (days since 1970-01-01); times are nanoseconds of the day.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::error::{GqlError, Result};
use crate::value::Value;

const NANOS_PER_SEC: i64 = 1_000_000_000;
const NANOS_PER_DAY: i64 = 86_400 * NANOS_PER_SEC;

/// A point in time of one of openCypher's five temporal types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Temporal {
    /// `date`: a day.
    Date(i64),
    /// `localtime`: nanoseconds of the day.
    LocalTime(i64),
    /// `time`: nanoseconds of the day and an offset in seconds.
    Time(i64, i32),
    /// `localdatetime`: day and nanoseconds of the day.
    LocalDateTime(i64, i64),
    /// `datetime`: local day and time, offset in seconds, and the zone name if one was given.
    DateTime(i64, i64, i32, Option<Rc<str>>),
}

/// A `duration`: months, days, seconds and nanoseconds kept apart, as openCypher does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Duration {
    /// Months (years are 12 months).
    pub months: i64,
    /// Days (weeks are 7 days).
    pub days: i64,
    /// Seconds.
    pub secs: i64,
    /// Nanoseconds, in `0..1_000_000_000`.
    pub nanos: i64,
}

impl Duration {
    fn norm(months: i64, days: i64, total_nanos: i128) -> Duration {
        let limit = i64::MAX as i128 * NANOS_PER_SEC as i128;
        let total_nanos = total_nanos.clamp(-limit, limit);
        let secs = total_nanos.div_euclid(NANOS_PER_SEC as i128) as i64;
        let nanos = total_nanos.rem_euclid(NANOS_PER_SEC as i128) as i64;
        Duration { months, days, secs, nanos }
    }
    fn total_nanos(&self) -> i128 {
        self.secs as i128 * NANOS_PER_SEC as i128 + self.nanos as i128
    }
}

// ---- calendar

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn month_len(y: i64, m: i64) -> i64 {
    match m {
        2 => {
            if is_leap(y) {
                29
            } else {
                28
            }
        }
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// ISO day of week, Monday 1 … Sunday 7.
fn weekday(days: i64) -> i64 {
    (days + 3).rem_euclid(7) + 1
}

/// The Monday of ISO week 1 of `y`.
fn week1_monday(y: i64) -> i64 {
    let jan4 = days_from_civil(y, 1, 4);
    jan4 - (weekday(jan4) - 1)
}

/// ISO week-year and week of a day.
fn iso_week(days: i64) -> (i64, i64) {
    let (y, _, _) = civil_from_days(days);
    let mut wy = y;
    if days >= week1_monday(y + 1) {
        wy = y + 1;
    } else if days < week1_monday(y) {
        wy = y - 1;
    }
    (wy, (days - week1_monday(wy)) / 7 + 1)
}

fn checked_date(y: i64, m: i64, d: i64) -> Result<i64> {
    if !(1..=12).contains(&m) || d < 1 || d > month_len(y, m) || !(-MAX_YEAR..=MAX_YEAR).contains(&y) {
        return Err(GqlError::argument(format!("invalid date {y}-{m}-{d}")));
    }
    Ok(days_from_civil(y, m, d))
}

/// Adds months to a day number, keeping the day of month where the month allows
/// (2024-01-31 + 1 month is 2024-02-29). Saturates far outside the supported years;
/// [`add`] refuses such results.
fn add_months(days: i64, months: i64) -> i64 {
    let (y, m, d) = civil_from_days(days);
    let total = (y as i128 * 12 + (m - 1) as i128 + months as i128).clamp(-(MAX_YEAR as i128) * 24, MAX_YEAR as i128 * 24);
    let (ny, nm) = (total.div_euclid(12) as i64, (total.rem_euclid(12) + 1) as i64);
    days_from_civil(ny, nm, d.min(month_len(ny, nm)))
}

/// The largest year a temporal value may have.
const MAX_YEAR: i64 = 999_999_999;

// ---- formatting

fn fmt_year(y: i64) -> String {
    if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("+{y}")
    }
}

fn fmt_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{}-{m:02}-{d:02}", fmt_year(y))
}

fn fmt_frac(nanos: i64) -> String {
    if nanos == 0 {
        return String::new();
    }
    let s = format!("{nanos:09}");
    format!(".{}", s.trim_end_matches('0'))
}

fn fmt_time(n: i64) -> String {
    let (h, rest) = (n / (3600 * NANOS_PER_SEC), n % (3600 * NANOS_PER_SEC));
    let (mi, rest) = (rest / (60 * NANOS_PER_SEC), rest % (60 * NANOS_PER_SEC));
    let (s, ns) = (rest / NANOS_PER_SEC, rest % NANOS_PER_SEC);
    if s == 0 && ns == 0 { format!("{h:02}:{mi:02}") } else { format!("{h:02}:{mi:02}:{s:02}{}", fmt_frac(ns)) }
}

fn fmt_offset(off: i32) -> String {
    if off == 0 {
        return "Z".into();
    }
    let sign = if off < 0 { '-' } else { '+' };
    let a = off.unsigned_abs();
    let (h, m, s) = (a / 3600, (a % 3600) / 60, a % 60);
    if s == 0 { format!("{sign}{h:02}:{m:02}") } else { format!("{sign}{h:02}:{m:02}:{s:02}") }
}

impl std::fmt::Display for Temporal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Temporal::Date(d) => write!(f, "{}", fmt_date(*d)),
            Temporal::LocalTime(t) => write!(f, "{}", fmt_time(*t)),
            Temporal::Time(t, o) => write!(f, "{}{}", fmt_time(*t), fmt_offset(*o)),
            Temporal::LocalDateTime(d, t) => write!(f, "{}T{}", fmt_date(*d), fmt_time(*t)),
            Temporal::DateTime(d, t, o, z) => {
                write!(f, "{}T{}{}", fmt_date(*d), fmt_time(*t), fmt_offset(*o))?;
                if let Some(z) = z {
                    write!(f, "[{z}]")?;
                }
                Ok(())
            }
        }
    }
}

impl std::fmt::Display for Duration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (y, mo) = (self.months / 12, self.months % 12);
        let total = self.total_nanos();
        let hour = 3600 * NANOS_PER_SEC as i128;
        let (h, rest) = (total / hour, total % hour);
        let (mi, rest) = (rest / (60 * NANOS_PER_SEC as i128), rest % (60 * NANOS_PER_SEC as i128));
        let mut s = String::from("P");
        if y != 0 {
            s.push_str(&format!("{y}Y"));
        }
        if mo != 0 {
            s.push_str(&format!("{mo}M"));
        }
        if self.days != 0 {
            s.push_str(&format!("{}D", self.days));
        }
        let mut t = String::new();
        if h != 0 {
            t.push_str(&format!("{h}H"));
        }
        if mi != 0 {
            t.push_str(&format!("{mi}M"));
        }
        if rest != 0 {
            let neg = rest < 0;
            let a = rest.unsigned_abs();
            let (sec, ns) = (a / NANOS_PER_SEC as u128, a % NANOS_PER_SEC as u128);
            t.push_str(&format!("{}{sec}{}S", if neg { "-" } else { "" }, fmt_frac(ns as i64)));
        }
        if !t.is_empty() {
            s.push('T');
            s.push_str(&t);
        }
        if s == "P" {
            s.push_str("T0S");
        }
        f.write_str(&s)
    }
}

// ---- comparison

impl Temporal {
    /// openCypher's type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Temporal::Date(_) => "Date",
            Temporal::LocalTime(_) => "LocalTime",
            Temporal::Time(..) => "Time",
            Temporal::LocalDateTime(..) => "LocalDateTime",
            Temporal::DateTime(..) => "DateTime",
        }
    }
    /// Rank in ORDER BY's type order: datetime, localdatetime, date, time, localtime.
    pub fn order_rank(&self) -> u8 {
        match self {
            Temporal::DateTime(..) => 0,
            Temporal::LocalDateTime(..) => 1,
            Temporal::Date(_) => 2,
            Temporal::Time(..) => 3,
            Temporal::LocalTime(_) => 4,
        }
    }
    fn key(&self) -> (i128, i128) {
        match self {
            Temporal::Date(d) => (*d as i128, 0),
            Temporal::LocalTime(t) => (*t as i128, 0),
            Temporal::Time(t, o) => (*t as i128 - *o as i128 * NANOS_PER_SEC as i128, *t as i128),
            Temporal::LocalDateTime(d, t) => (*d as i128 * NANOS_PER_DAY as i128 + *t as i128, 0),
            Temporal::DateTime(d, t, o, _) => (*d as i128 * NANOS_PER_DAY as i128 + *t as i128 - *o as i128 * NANOS_PER_SEC as i128, 0),
        }
    }
    /// Comparison within one type (`None` across types).
    pub fn compare(&self, other: &Temporal) -> Option<std::cmp::Ordering> {
        if std::mem::discriminant(self) != std::mem::discriminant(other) {
            return None;
        }
        Some(self.key().0.cmp(&other.key().0))
    }
    /// Equality: the same instant (and, for times, the same offset).
    pub fn same(&self, other: &Temporal) -> bool {
        match (self, other) {
            (Temporal::Time(a, o1), Temporal::Time(b, o2)) => a == b && o1 == o2,
            (Temporal::DateTime(..), Temporal::DateTime(..)) => self.key() == other.key(),
            _ => self == other,
        }
    }
    /// Total order key for ORDER BY within one type.
    pub fn order_key(&self) -> (i128, i128) {
        self.key()
    }
}

// ---- parsing strings

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn num(s: &str) -> Result<i64> {
    s.parse::<i64>().map_err(|_| GqlError::argument(format!("invalid number '{s}' in a temporal string")))
}

fn bad(s: &str, what: &str) -> GqlError {
    GqlError::argument(format!("cannot parse '{s}' as a {what}"))
}

fn parse_date(s: &str) -> Result<i64> {
    let (sign, body) = match s.strip_prefix('-') {
        Some(b) => (-1, b),
        None => (1, s.strip_prefix('+').unwrap_or(s)),
    };
    let ylen = if s.starts_with(['+', '-']) { body.find(|c: char| !c.is_ascii_digit()).unwrap_or(body.len()).min(9) } else { 4 };
    if body.len() < ylen || !digits(&body[..ylen]) {
        return Err(bad(s, "date"));
    }
    let y = sign * num(&body[..ylen])?;
    let rest = &body[ylen..];
    let rest_d = rest.strip_prefix('-').unwrap_or(rest);
    let dashed = rest.starts_with('-');
    if rest.is_empty() {
        return checked_date(y, 1, 1);
    }
    if let Some(w) = rest_d.strip_prefix('W') {
        let w2 = w.replace('-', "");
        if !digits(&w2) || (w2.len() != 2 && w2.len() != 3) {
            return Err(bad(s, "date"));
        }
        let week = num(&w2[..2])?;
        let dow = if w2.len() == 3 { num(&w2[2..])? } else { 1 };
        return week_date(y, week, dow);
    }
    if dashed {
        let parts: Vec<&str> = rest_d.split('-').collect();
        return match parts.as_slice() {
            [m] if m.len() == 2 && digits(m) => checked_date(y, num(m)?, 1),
            [o] if o.len() == 3 && digits(o) => ordinal_date(y, num(o)?),
            [m, d] if m.len() == 2 && d.len() == 2 && digits(m) && digits(d) => checked_date(y, num(m)?, num(d)?),
            _ => Err(bad(s, "date")),
        };
    }
    if !digits(rest) {
        return Err(bad(s, "date"));
    }
    match rest.len() {
        2 => checked_date(y, num(rest)?, 1),
        3 => ordinal_date(y, num(rest)?),
        4 => checked_date(y, num(&rest[..2])?, num(&rest[2..])?),
        _ => Err(bad(s, "date")),
    }
}

fn week_date(y: i64, week: i64, dow: i64) -> Result<i64> {
    let weeks = if iso_week(days_from_civil(y, 12, 28)).1 == 53 { 53 } else { 52 };
    if !(1..=weeks).contains(&week) || !(1..=7).contains(&dow) {
        return Err(GqlError::argument(format!("invalid week date {y}-W{week}-{dow}")));
    }
    Ok(week1_monday(y) + (week - 1) * 7 + (dow - 1))
}

fn ordinal_date(y: i64, o: i64) -> Result<i64> {
    let n = if is_leap(y) { 366 } else { 365 };
    if !(1..=n).contains(&o) {
        return Err(GqlError::argument(format!("invalid ordinal day {o} of {y}")));
    }
    Ok(days_from_civil(y, 1, 1) + o - 1)
}

fn hms(h: i64, m: i64, s: i64, ns: i64) -> Result<i64> {
    if !(0..24).contains(&h) || !(0..60).contains(&m) || !(0..60).contains(&s) || !(0..NANOS_PER_SEC).contains(&ns) {
        return Err(GqlError::argument(format!("invalid time {h}:{m}:{s}.{ns}")));
    }
    Ok(((h * 60 + m) * 60 + s) * NANOS_PER_SEC + ns)
}

fn parse_frac(f: &str) -> Result<i64> {
    if f.is_empty() || f.len() > 9 || !digits(f) {
        return Err(bad(f, "fraction"));
    }
    Ok(num(f)? * 10i64.pow(9 - f.len() as u32))
}

/// Parses a local time `HH[:MM[:SS[.f]]]` or `HH[MM[SS[.f]]]`.
fn parse_local_time(s: &str) -> Result<i64> {
    let (main, frac) = match s.split_once(['.', ',']) {
        Some((a, b)) => (a, parse_frac(b)?),
        None => (s, 0),
    };
    let parts: Vec<&str> = if main.contains(':') { main.split(':').collect() } else { main.as_bytes().chunks(2).map(|c| std::str::from_utf8(c).unwrap_or("")).collect() };
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.len() != 2 || !digits(p)) {
        return Err(bad(s, "time"));
    }
    let h = num(parts[0])?;
    let m = parts.get(1).map_or(Ok(0), |p| num(p))?;
    let sec = parts.get(2).map_or(Ok(0), |p| num(p))?;
    if frac != 0 && parts.len() < 3 {
        return Err(bad(s, "time"));
    }
    hms(h, m, sec, frac)
}

/// Splits `12:00+01:00[Europe/Stockholm]` into the time, the offset (seconds) and the zone.
fn split_zone(s: &str) -> Result<(&str, Option<i32>, Option<String>)> {
    let (s, zone) = match s.find('[') {
        Some(i) => (&s[..i], Some(s[i + 1..].trim_end_matches(']').to_string())),
        None => (s, None),
    };
    if let Some(t) = s.strip_suffix('Z').or_else(|| s.strip_suffix('z')) {
        return Ok((t, Some(0), zone));
    }
    match s.rfind(['+', '-']) {
        Some(i) if i > 0 => Ok((&s[..i], Some(parse_offset(&s[i..])?), zone)),
        _ => Ok((s, None, zone)),
    }
}

/// Parses `+01:00`, `+0100`, `+01`, `Z`.
pub fn parse_offset(s: &str) -> Result<i32> {
    if s == "Z" || s == "z" {
        return Ok(0);
    }
    let sign = if s.starts_with('-') {
        -1
    } else if s.starts_with('+') {
        1
    } else {
        return Err(bad(s, "time zone offset"));
    };
    let b = s[1..].replace(':', "");
    if !digits(&b) || !(b.len() == 2 || b.len() == 4 || b.len() == 6) {
        return Err(bad(s, "time zone offset"));
    }
    let h = num(&b[..2])?;
    let m = if b.len() >= 4 { num(&b[2..4])? } else { 0 };
    let sec = if b.len() == 6 { num(&b[4..6])? } else { 0 };
    if h > 18 || m > 59 {
        return Err(bad(s, "time zone offset"));
    }
    Ok(sign * (h * 3600 + m * 60 + sec) as i32)
}

/// The offset of zone `name` at the given local date and time (system zoneinfo).
fn zone_offset(name: &str, days: i64, nanos: i64) -> Result<i32> {
    if name.starts_with(['+', '-']) || name == "Z" {
        return parse_offset(name);
    }
    let tz = jiff::tz::TimeZone::get(name).map_err(|e| GqlError::argument(format!("unknown time zone {name}: {e}")))?;
    let (y, m, d) = civil_from_days(days);
    let secs = nanos / NANOS_PER_SEC;
    let dt =
        jiff::civil::DateTime::new(y as i16, m as i8, d as i8, (secs / 3600) as i8, (secs / 60 % 60) as i8, (secs % 60) as i8, 0).map_err(|e| GqlError::argument(e.to_string()))?;
    let zoned = dt.to_zoned(tz).map_err(|e| GqlError::argument(e.to_string()))?;
    Ok(zoned.offset().seconds())
}

/// The offset of zone `name` at an instant (UTC nanoseconds since the epoch).
fn zone_offset_at(name: &str, utc_nanos: i128) -> Result<i32> {
    if name.starts_with(['+', '-']) || name == "Z" {
        return parse_offset(name);
    }
    let tz = jiff::tz::TimeZone::get(name).map_err(|e| GqlError::argument(format!("unknown time zone {name}: {e}")))?;
    let ts = jiff::Timestamp::from_nanosecond(utc_nanos).map_err(|e| GqlError::argument(e.to_string()))?;
    Ok(tz.to_offset(ts).seconds())
}

fn zone_value(z: &str) -> (Option<i32>, Option<Rc<str>>) {
    if z.starts_with(['+', '-']) || z == "Z" { (parse_offset(z).ok(), None) } else { (None, Some(Rc::from(z))) }
}

/// Parses a temporal string for constructor `kind`.
pub fn parse(kind: &str, s: &str) -> Result<Temporal> {
    let s = s.trim();
    if !s.is_ascii() {
        return Err(bad(s, kind));
    }
    match kind {
        "date" => Ok(Temporal::Date(parse_date(s)?)),
        "localtime" => Ok(Temporal::LocalTime(parse_local_time(s)?)),
        "time" => {
            let (t, off, _) = split_zone(s)?;
            Ok(Temporal::Time(parse_local_time(t)?, off.unwrap_or(0)))
        }
        "localdatetime" => {
            let (d, t) = s.split_once(['T', 't']).unwrap_or((s, "00:00"));
            Ok(Temporal::LocalDateTime(parse_date(d)?, parse_local_time(t)?))
        }
        _ => {
            let (d, t) = s.split_once(['T', 't']).unwrap_or((s, "00:00"));
            let days = parse_date(d)?;
            let (t, off, zone) = split_zone(t)?;
            let nanos = parse_local_time(t)?;
            let off = match (off, &zone) {
                (Some(o), _) => o,
                (None, Some(z)) => zone_offset(z, days, nanos)?,
                (None, None) => 0,
            };
            Ok(Temporal::DateTime(days, nanos, off, zone.map(|z| Rc::from(z.as_str()))))
        }
    }
}

/// Parses an ISO 8601 duration (`P1Y2M3W4DT5H6M7.8S`, fractions cascading to smaller
/// units, or `P2012-02-02T14:37:21.545`).
pub fn parse_duration(s: &str) -> Result<Duration> {
    if !s.is_ascii() {
        return Err(bad(s, "duration"));
    }
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let Some(body) = body.strip_prefix('P').or_else(|| body.strip_prefix('p')) else { return Err(bad(s, "duration")) };
    if body.is_empty() {
        return Err(bad(s, "duration"));
    }
    let mut months: f64 = 0.0;
    let mut days: f64 = 0.0;
    let mut secs: f64 = 0.0;
    let mut nanos_exact: i128 = 0;
    if body.len() > 4 && body[..4].bytes().all(|b| b.is_ascii_digit()) && body.as_bytes()[4] == b'-' {
        let (d, t) = body.split_once('T').unwrap_or((body, ""));
        let p: Vec<&str> = d.split('-').collect();
        if p.len() != 3 {
            return Err(bad(s, "duration"));
        }
        months = (num(p[0])? * 12 + num(p[1])?) as f64;
        days = num(p[2])? as f64;
        if !t.is_empty() {
            let n = parse_local_time(t)?;
            nanos_exact = n as i128;
        }
    } else {
        let mut in_time = false;
        let mut cur = String::new();
        for c in body.chars() {
            match c {
                'T' | 't' => {
                    if !cur.is_empty() {
                        return Err(bad(s, "duration"));
                    }
                    in_time = true;
                }
                '0'..='9' | '.' | ',' | '-' | '+' => cur.push(if c == ',' { '.' } else { c }),
                u => {
                    let v: f64 = cur.parse().map_err(|_| bad(s, "duration"))?;
                    let whole = !cur.contains('.');
                    cur.clear();
                    match (in_time, u.to_ascii_uppercase()) {
                        (false, 'Y') => months += v * 12.0,
                        (false, 'M') => months += v,
                        (false, 'W') => days += v * 7.0,
                        (false, 'D') => days += v,
                        (true, 'H') => secs += v * 3600.0,
                        (true, 'M') => secs += v * 60.0,
                        (true, 'S') => {
                            if whole {
                                nanos_exact += v as i128 * NANOS_PER_SEC as i128;
                            } else {
                                let (i, f) = (v.trunc(), v.fract());
                                nanos_exact += i as i128 * NANOS_PER_SEC as i128 + (f * 1e9).round() as i128;
                            }
                        }
                        _ => return Err(bad(s, "duration")),
                    }
                }
            }
        }
        if !cur.is_empty() {
            return Err(bad(s, "duration"));
        }
    }
    // Fractions cascade: a fraction of a month is 30.436875 days, of a day 86400 s.
    let m_whole = months.trunc();
    let days_total = days + (months - m_whole) * 30.436_875;
    let d_whole = days_total.trunc();
    let secs_total = secs + (days_total - d_whole) * 86_400.0;
    let total_nanos = (secs_total * 1e9).round() as i128 + nanos_exact;
    let d = Duration::norm(m_whole as i64, d_whole as i64, total_nanos);
    Ok(if neg { negate(d) } else { d })
}

/// `-d`.
pub fn negate(d: Duration) -> Duration {
    Duration::norm(-d.months, -d.days, -d.total_nanos())
}

// ---- construction from maps

fn get_i(m: &BTreeMap<String, Value>, k: &str) -> Result<Option<i64>> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Int(i)) => Ok(Some(*i)),
        Some(Value::Float(f)) => Ok(Some(*f as i64)),
        Some(other) => Err(GqlError::type_error(format!("temporal component {k} must be an integer, got {}", other.type_name()))),
    }
}

fn get_f(m: &BTreeMap<String, Value>, k: &str) -> Result<Option<f64>> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Int(i)) => Ok(Some(*i as f64)),
        Some(Value::Float(f)) => Ok(Some(*f)),
        Some(other) => Err(GqlError::type_error(format!("duration component {k} must be a number, got {}", other.type_name()))),
    }
}

/// The parts a temporal provides to another's construction.
struct Parts {
    days: Option<i64>,
    nanos: Option<i64>,
    offset: Option<i32>,
    zone: Option<Rc<str>>,
}

fn parts(t: &Temporal) -> Parts {
    match t {
        Temporal::Date(d) => Parts { days: Some(*d), nanos: None, offset: None, zone: None },
        Temporal::LocalTime(n) => Parts { days: None, nanos: Some(*n), offset: None, zone: None },
        Temporal::Time(n, o) => Parts { days: None, nanos: Some(*n), offset: Some(*o), zone: None },
        Temporal::LocalDateTime(d, n) => Parts { days: Some(*d), nanos: Some(*n), offset: None, zone: None },
        Temporal::DateTime(d, n, o, z) => Parts { days: Some(*d), nanos: Some(*n), offset: Some(*o), zone: z.clone() },
    }
}

fn temporal_in(m: &BTreeMap<String, Value>, k: &str) -> Option<Temporal> {
    match m.get(k) {
        Some(Value::Temporal(t)) => Some(t.clone()),
        _ => None,
    }
}

/// The date part of a map: year/month/day, year/week/dayOfWeek, year/quarter/dayOfQuarter,
/// year/ordinalDay, or a `date` to select from with overrides.
fn date_of_map(m: &BTreeMap<String, Value>, base: Option<i64>) -> Result<Option<i64>> {
    let year = get_i(m, "year")?;
    if let Some(b) = base {
        let (by, bm, bd) = civil_from_days(b);
        if let Some(w) = get_i(m, "week")? {
            let (wy, _) = iso_week(b);
            let dow = get_i(m, "dayofweek")?.unwrap_or(weekday(b));
            return week_date(year.unwrap_or(wy), w, dow).map(Some);
        }
        if let Some(dow) = get_i(m, "dayofweek")? {
            let (wy, w) = iso_week(b);
            return week_date(year.unwrap_or(wy), w, dow).map(Some);
        }
        if let Some(o) = get_i(m, "ordinalday")? {
            return ordinal_date(year.unwrap_or(by), o).map(Some);
        }
        if let Some(q) = get_i(m, "quarter")? {
            let doq = get_i(m, "dayofquarter")?.unwrap_or_else(|| b - days_from_civil(by, (bm - 1) / 3 * 3 + 1, 1) + 1);
            return quarter_date(year.unwrap_or(by), q, doq).map(Some);
        }
        if let Some(doq) = get_i(m, "dayofquarter")? {
            return quarter_date(year.unwrap_or(by), (bm - 1) / 3 + 1, doq).map(Some);
        }
        let y = year.unwrap_or(by);
        let mo = get_i(m, "month")?.unwrap_or(bm);
        let d = get_i(m, "day")?.unwrap_or(bd);
        return checked_date(y, mo, d).map(Some);
    }
    let Some(y) = year else { return Ok(None) };
    if let Some(w) = get_i(m, "week")? {
        return week_date(y, w, get_i(m, "dayofweek")?.unwrap_or(1)).map(Some);
    }
    if let Some(o) = get_i(m, "ordinalday")? {
        return ordinal_date(y, o).map(Some);
    }
    if let Some(q) = get_i(m, "quarter")? {
        return quarter_date(y, q, get_i(m, "dayofquarter")?.unwrap_or(1)).map(Some);
    }
    let mo = get_i(m, "month")?.unwrap_or(1);
    let d = get_i(m, "day")?.unwrap_or(1);
    if get_i(m, "day")?.is_some() && get_i(m, "month")?.is_none() {
        return Err(GqlError::argument("day given without month"));
    }
    checked_date(y, mo, d).map(Some)
}

fn quarter_date(y: i64, q: i64, doq: i64) -> Result<i64> {
    if !(1..=4).contains(&q) {
        return Err(GqlError::argument(format!("invalid quarter {q}")));
    }
    let start = days_from_civil(y, (q - 1) * 3 + 1, 1);
    let end = add_months(start, 3);
    if doq < 1 || start + doq > end {
        return Err(GqlError::argument(format!("invalid day of quarter {doq}")));
    }
    Ok(start + doq - 1)
}

/// The time part of a map (hour, minute, second, millisecond, microsecond, nanosecond),
/// over a base time of day when selecting from another temporal.
fn time_of_map(m: &BTreeMap<String, Value>, base: Option<i64>) -> Result<Option<i64>> {
    let keys = ["hour", "minute", "second", "millisecond", "microsecond", "nanosecond"];
    let any = keys.iter().any(|k| m.get(*k).is_some_and(|v| !v.is_null()));
    if !any && base.is_none() {
        return Ok(None);
    }
    let b = base.unwrap_or(0);
    let (bh, bmi, bs, bns) = (b / (3600 * NANOS_PER_SEC), b / (60 * NANOS_PER_SEC) % 60, b / NANOS_PER_SEC % 60, b % NANOS_PER_SEC);
    let h = get_i(m, "hour")?.unwrap_or(if base.is_some() { bh } else { 0 });
    let mi = get_i(m, "minute")?;
    let s = get_i(m, "second")?;
    if base.is_none() && ((s.is_some() && mi.is_none()) || (mi.is_some() && get_i(m, "hour")?.is_none())) {
        return Err(GqlError::argument("time components must be given from the largest down"));
    }
    let ms = get_i(m, "millisecond")?;
    let us = get_i(m, "microsecond")?;
    let ns = get_i(m, "nanosecond")?;
    let sub = if ms.is_none() && us.is_none() && ns.is_none() {
        if base.is_some() { bns } else { 0 }
    } else {
        let (ms_b, us_b, ns_b) = if base.is_some() { (bns / 1_000_000, bns / 1000 % 1000, bns % 1000) } else { (0, 0, 0) };
        let ms = ms.unwrap_or(ms_b);
        let us = us.unwrap_or(us_b);
        let ns = ns.unwrap_or(ns_b);
        if !(0..1000).contains(&ms) || !(0..1000).contains(&us) && us >= 1_000_000 {
            return Err(GqlError::argument("sub-second component out of range"));
        }
        let total = ms * 1_000_000 + us * 1000 + ns;
        if !(0..NANOS_PER_SEC).contains(&total) {
            return Err(GqlError::argument("sub-second component out of range"));
        }
        total
    };
    hms(h, mi.unwrap_or(if base.is_some() { bmi } else { 0 }), s.unwrap_or(if base.is_some() { bs } else { 0 }), sub).map(Some)
}

fn lower_keys(m: &BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    m.iter().map(|(k, v)| (k.to_lowercase(), v.clone())).collect()
}

/// Shifts a local day and time by `delta` seconds of offset change.
fn shift(days: i64, nanos: i64, delta_secs: i64) -> (i64, i64) {
    let t = days as i128 * NANOS_PER_DAY as i128 + nanos as i128 + delta_secs as i128 * NANOS_PER_SEC as i128;
    (t.div_euclid(NANOS_PER_DAY as i128) as i64, t.rem_euclid(NANOS_PER_DAY as i128) as i64)
}

/// Builds a temporal of constructor `kind` from a map.
pub fn from_map(kind: &str, m: &BTreeMap<String, Value>) -> Result<Temporal> {
    let m = lower_keys(m);
    let tz = match m.get("timezone") {
        Some(Value::Str(s)) => Some(s.to_string()),
        None | Some(Value::Null) => None,
        Some(other) => return Err(GqlError::type_error(format!("timezone must be a string, got {}", other.type_name()))),
    };
    // Epoch construction.
    if kind == "datetime" && (m.contains_key("epochseconds") || m.contains_key("epochmillis")) {
        let mut n: i128 = 0;
        if let Some(s) = get_i(&m, "epochseconds")? {
            n += s as i128 * NANOS_PER_SEC as i128;
        }
        if let Some(ms) = get_i(&m, "epochmillis")? {
            n += ms as i128 * 1_000_000;
        }
        if let Some(ns) = get_i(&m, "nanosecond")? {
            n += ns as i128;
        }
        if let Some(us) = get_i(&m, "microsecond")? {
            n += us as i128 * 1000;
        }
        if let Some(ms) = get_i(&m, "millisecond")? {
            n += ms as i128 * 1_000_000;
        }
        let off = match &tz {
            Some(z) => zone_offset_at(z, n)?,
            None => 0,
        };
        let (d, t) = shift((n.div_euclid(NANOS_PER_DAY as i128)) as i64, (n.rem_euclid(NANOS_PER_DAY as i128)) as i64, off as i64);
        return Ok(Temporal::DateTime(d, t, off, tz.filter(|z| !z.starts_with(['+', '-'])).map(|z| Rc::from(z.as_str()))));
    }
    // Selection from other temporals.
    let src_all = ["datetime", "date", "time", "localdatetime", "localtime"];
    let whole = temporal_in(&m, kind).or_else(|| if kind == "localdatetime" { temporal_in(&m, "datetime") } else { None });
    let date_src = temporal_in(&m, "date").or_else(|| whole.clone()).map(|t| parts(&t));
    let time_src = temporal_in(&m, "time").or_else(|| whole.clone()).map(|t| parts(&t));
    let _ = src_all;
    let base_days = date_src.as_ref().and_then(|p| p.days);
    let base_nanos = time_src.as_ref().and_then(|p| p.nanos);
    let src_offset = time_src.as_ref().and_then(|p| p.offset);
    let src_zone = time_src.as_ref().and_then(|p| p.zone.clone());
    let days = date_of_map(&m, base_days)?;
    let mut nanos = time_of_map(&m, base_nanos)?;
    if nanos.is_none() && time_src.is_some() {
        nanos = Some(0);
    }
    match kind {
        "date" => days.map(Temporal::Date).ok_or_else(|| GqlError::argument("date() needs a year")),
        "localtime" => nanos.map(Temporal::LocalTime).ok_or_else(|| GqlError::argument("localtime() needs an hour")),
        "time" => {
            let n = nanos.ok_or_else(|| GqlError::argument("time() needs an hour"))?;
            match (&tz, src_offset) {
                (Some(z), Some(o)) => {
                    let no = zone_offset(z, days.unwrap_or(0), n)?;
                    let (_, t) = shift(0, n, (no - o) as i64);
                    Ok(Temporal::Time(t, no))
                }
                (Some(z), None) => Ok(Temporal::Time(n, zone_offset(z, days.unwrap_or(0), n)?)),
                (None, o) => Ok(Temporal::Time(n, o.unwrap_or(0))),
            }
        }
        "localdatetime" => Ok(Temporal::LocalDateTime(days.ok_or_else(|| GqlError::argument("localdatetime() needs a year"))?, nanos.unwrap_or(0))),
        _ => {
            let d = days.ok_or_else(|| GqlError::argument("datetime() needs a year"))?;
            let n = nanos.unwrap_or(0);
            match (&tz, src_offset) {
                (Some(z), Some(o)) => {
                    // Convert the instant into the new zone.
                    let o = match &src_zone {
                        Some(sz) => zone_offset(sz, d, n).unwrap_or(o),
                        None => o,
                    };
                    let utc = d as i128 * NANOS_PER_DAY as i128 + n as i128 - o as i128 * NANOS_PER_SEC as i128;
                    let no = zone_offset_at(z, utc)?;
                    let (nd, nt) = shift(d, n, (no - o) as i64);
                    let (_, zn) = zone_value(z);
                    Ok(Temporal::DateTime(nd, nt, no, zn))
                }
                (Some(z), None) => {
                    let (o, zn) = zone_value(z);
                    let off = match o {
                        Some(o) => o,
                        None => zone_offset(z, d, n)?,
                    };
                    Ok(Temporal::DateTime(d, n, off, zn))
                }
                (None, Some(o)) => {
                    // A named zone's offset is the one in force at the new date and time.
                    let o = match &src_zone {
                        Some(z) => zone_offset(z, d, n).unwrap_or(o),
                        None => o,
                    };
                    Ok(Temporal::DateTime(d, n, o, src_zone))
                }
                (None, None) => Ok(Temporal::DateTime(d, n, 0, None)),
            }
        }
    }
}

/// `date(x)`, `datetime(x)`, …: from a string, a map, or another temporal.
pub fn construct(kind: &str, arg: Option<&Value>) -> Result<Value> {
    let t = match arg {
        None => return Err(GqlError::argument(format!("{kind}() without arguments reads the clock; tg gql is deterministic"))),
        Some(Value::Null) => return Ok(Value::Null),
        Some(Value::Str(s)) => parse(kind, s)?,
        Some(Value::Map(m)) => from_map(kind, m)?,
        Some(Value::Temporal(t)) => {
            let mut m = BTreeMap::new();
            let key = match t {
                Temporal::Date(_) => "date",
                Temporal::LocalTime(_) | Temporal::Time(..) => "time",
                _ => "datetime",
            };
            m.insert(key.to_string(), Value::Temporal(t.clone()));
            if matches!(t, Temporal::LocalDateTime(..) | Temporal::DateTime(..)) {
                m.insert("date".to_string(), Value::Temporal(t.clone()));
                m.insert("time".to_string(), Value::Temporal(t.clone()));
            }
            from_map(kind, &m)?
        }
        Some(other) => return Err(GqlError::argument(format!("{kind}() cannot take a {}", other.type_name()))),
    };
    Ok(Value::Temporal(t))
}

/// `duration(x)` from a string or a map of components (fractions cascade).
pub fn duration(arg: Option<&Value>) -> Result<Value> {
    match arg {
        Some(Value::Null) => Ok(Value::Null),
        Some(Value::Str(s)) => Ok(Value::Duration(parse_duration(s)?)),
        Some(Value::Map(m)) => {
            let m = lower_keys(m);
            let mut months = 0.0;
            let mut days = 0.0;
            let mut nanos: f64 = 0.0;
            for (k, v) in &m {
                let Some(x) = get_f(&m, k)? else { continue };
                let _ = v;
                match k.as_str() {
                    "years" => months += x * 12.0,
                    "quarters" => months += x * 3.0,
                    "months" => months += x,
                    "weeks" => days += x * 7.0,
                    "days" => days += x,
                    "hours" => nanos += x * 3600e9,
                    "minutes" => nanos += x * 60e9,
                    "seconds" => nanos += x * 1e9,
                    "milliseconds" => nanos += x * 1e6,
                    "microseconds" => nanos += x * 1e3,
                    "nanoseconds" => nanos += x,
                    _ => return Err(GqlError::argument(format!("unknown duration component {k}"))),
                }
            }
            let mw = months.trunc();
            let dt = days + (months - mw) * 30.436_875;
            let dw = dt.trunc();
            let n = nanos + (dt - dw) * 86_400e9;
            Ok(Value::Duration(Duration::norm(mw as i64, dw as i64, n.round() as i128)))
        }
        Some(other) => Err(GqlError::argument(format!("duration() cannot take a {}", other.type_name()))),
        None => Err(GqlError::argument("duration() needs an argument")),
    }
}

// ---- truncation

/// `kind.truncate(unit, t, overrides)`.
pub fn truncate(kind: &str, unit: &str, t: &Temporal, overrides: Option<&BTreeMap<String, Value>>) -> Result<Value> {
    let p = parts(t);
    let days = p.days;
    let nanos = p.nanos.unwrap_or(0);
    let unit = unit.to_lowercase();
    let tdays = match days {
        Some(d) => {
            let (y, m, _) = civil_from_days(d);
            Some(match unit.as_str() {
                "millennium" => days_from_civil(y - y.rem_euclid(1000), 1, 1),
                "century" => days_from_civil(y - y.rem_euclid(100), 1, 1),
                "decade" => days_from_civil(y - y.rem_euclid(10), 1, 1),
                "year" => days_from_civil(y, 1, 1),
                "weekyear" => week1_monday(iso_week(d).0),
                "quarter" => days_from_civil(y, (m - 1) / 3 * 3 + 1, 1),
                "month" => days_from_civil(y, m, 1),
                "week" => d - (weekday(d) - 1),
                _ => d,
            })
        }
        None => None,
    };
    let tn = match unit.as_str() {
        "millennium" | "century" | "decade" | "year" | "weekyear" | "quarter" | "month" | "week" | "day" => 0,
        "hour" => nanos - nanos % (3600 * NANOS_PER_SEC),
        "minute" => nanos - nanos % (60 * NANOS_PER_SEC),
        "second" => nanos - nanos % NANOS_PER_SEC,
        "millisecond" => nanos - nanos % 1_000_000,
        "microsecond" => nanos - nanos % 1000,
        _ => return Err(GqlError::argument(format!("unknown truncation unit {unit}"))),
    };
    if tdays.is_none()
        && matches!(unit.as_str(), "millennium" | "century" | "decade" | "year" | "weekyear" | "quarter" | "month" | "week" | "day")
        && matches!(kind, "time" | "localtime")
    {
        // Truncating a time to a date unit gives midnight.
    }
    let mut m: BTreeMap<String, Value> = BTreeMap::new();
    if let Some(o) = overrides {
        for (k, v) in lower_keys(o) {
            m.insert(k, v);
        }
    }
    let base_t = match kind {
        "date" => Temporal::Date(tdays.unwrap_or(0)),
        "localtime" => Temporal::LocalTime(tn),
        "time" => Temporal::Time(tn, p.offset.unwrap_or(0)),
        "localdatetime" => Temporal::LocalDateTime(tdays.unwrap_or(0), tn),
        _ => Temporal::DateTime(tdays.unwrap_or(0), tn, p.offset.unwrap_or(0), p.zone.clone()),
    };
    if m.is_empty() {
        return Ok(Value::Temporal(base_t));
    }
    // Overrides: week truncation with dayOfWeek adjusts within the week.
    if (unit == "week" || unit == "weekyear")
        && let (Some(dow), Some(d)) = (get_i(&m, "dayofweek")?, tdays)
    {
        m.remove("dayofweek");
        let nd = d + dow - 1;
        let t2 = match base_t {
            Temporal::Date(_) => Temporal::Date(nd),
            Temporal::LocalDateTime(_, n) => Temporal::LocalDateTime(nd, n),
            Temporal::DateTime(_, n, o, z) => Temporal::DateTime(nd, n, o, z),
            other => other,
        };
        if m.is_empty() {
            return Ok(Value::Temporal(t2));
        }
        return apply_overrides(kind, &t2, m);
    }
    apply_overrides(kind, &base_t, m)
}

fn apply_overrides(kind: &str, t: &Temporal, mut m: BTreeMap<String, Value>) -> Result<Value> {
    let key = match t {
        Temporal::Date(_) => "date",
        Temporal::LocalTime(_) | Temporal::Time(..) => "time",
        _ => "datetime",
    };
    m.insert(key.into(), Value::Temporal(t.clone()));
    if key == "datetime" {
        m.insert("date".into(), Value::Temporal(t.clone()));
        m.insert("time".into(), Value::Temporal(t.clone()));
    }
    // A timezone override keeps the local time (it does not convert).
    if let (Some(Value::Str(z)), Temporal::DateTime(d, n, _, _)) = (m.get("timezone").cloned(), t) {
        m.remove("timezone");
        m.remove("datetime");
        m.remove("time");
        m.insert("time".into(), Value::Temporal(Temporal::LocalTime(*n)));
        m.insert("date".into(), Value::Temporal(Temporal::Date(*d)));
        m.insert("timezone".into(), Value::Str(z));
    }
    Ok(Value::Temporal(from_map(kind, &m)?))
}

// ---- accessors

/// `t.field` for temporals.
pub fn component(t: &Temporal, field: &str) -> Option<Value> {
    let p = parts(t);
    let f = field.to_lowercase();
    let i = |x: i64| Some(Value::Int(x));
    if let Some(d) = p.days {
        let (y, m, dd) = civil_from_days(d);
        match f.as_str() {
            "year" => return i(y),
            "quarter" => return i((m - 1) / 3 + 1),
            "month" => return i(m),
            "week" => return i(iso_week(d).1),
            "weekyear" => return i(iso_week(d).0),
            "dayofquarter" => return i(d - days_from_civil(y, (m - 1) / 3 * 3 + 1, 1) + 1),
            "day" => return i(dd),
            "ordinalday" => return i(d - days_from_civil(y, 1, 1) + 1),
            "dayofweek" | "weekday" => return i(weekday(d)),
            _ => {}
        }
    }
    if let Some(n) = p.nanos {
        match f.as_str() {
            "hour" => return i(n / (3600 * NANOS_PER_SEC)),
            "minute" => return i(n / (60 * NANOS_PER_SEC) % 60),
            "second" => return i(n / NANOS_PER_SEC % 60),
            "millisecond" => return i(n % NANOS_PER_SEC / 1_000_000),
            "microsecond" => return i(n % NANOS_PER_SEC / 1000),
            "nanosecond" => return i(n % NANOS_PER_SEC),
            _ => {}
        }
    }
    if let Some(o) = p.offset {
        match f.as_str() {
            "timezone" => return Some(Value::str(&p.zone.as_deref().map_or_else(|| fmt_offset(o), str::to_string))),
            "offset" => return Some(Value::str(&fmt_offset(o))),
            "offsetminutes" => return i(o as i64 / 60),
            "offsetseconds" => return i(o as i64),
            _ => {}
        }
    }
    if let (Temporal::DateTime(d, n, o, _), true) = (t, f == "epochseconds" || f == "epochmillis") {
        let utc = *d as i128 * NANOS_PER_DAY as i128 + *n as i128 - *o as i128 * NANOS_PER_SEC as i128;
        return Some(Value::Int(if f == "epochseconds" { utc.div_euclid(NANOS_PER_SEC as i128) as i64 } else { utc.div_euclid(1_000_000) as i64 }));
    }
    None
}

/// `d.field` for durations.
pub fn duration_component(d: &Duration, field: &str) -> Option<Value> {
    let total = d.total_nanos();
    let i = |x: i128| Some(Value::Int(x as i64));
    match field.to_lowercase().as_str() {
        "years" => i((d.months / 12) as i128),
        "quarters" => i((d.months / 3) as i128),
        "months" => i(d.months as i128),
        "weeks" => i((d.days / 7) as i128),
        "days" => i(d.days as i128),
        "hours" => i(total.div_euclid(3600 * NANOS_PER_SEC as i128)),
        "minutes" => i(total.div_euclid(60 * NANOS_PER_SEC as i128)),
        "seconds" => i(total.div_euclid(NANOS_PER_SEC as i128)),
        "milliseconds" => i(total.div_euclid(1_000_000)),
        "microseconds" => i(total.div_euclid(1000)),
        "nanoseconds" => i(total),
        "quartersofyear" => i(((d.months % 12) / 3) as i128),
        "monthsofquarter" => i((d.months % 3) as i128),
        "monthsofyear" => i((d.months % 12) as i128),
        "daysofweek" => i((d.days % 7) as i128),
        "minutesofhour" => i(total.div_euclid(60 * NANOS_PER_SEC as i128).rem_euclid(60)),
        "secondsofminute" => i(total.div_euclid(NANOS_PER_SEC as i128).rem_euclid(60)),
        "millisecondsofsecond" => i(total.rem_euclid(NANOS_PER_SEC as i128) / 1_000_000),
        "microsecondsofsecond" => i(total.rem_euclid(NANOS_PER_SEC as i128) / 1000),
        "nanosecondsofsecond" => i(total.rem_euclid(NANOS_PER_SEC as i128)),
        _ => None,
    }
}

// ---- arithmetic

/// `t + d` (or `t - d` with `sign = -1`): months, then days, then time; an ArgumentError
/// when the result leaves the supported years.
pub fn add(t: &Temporal, d: &Duration, sign: i64) -> Result<Temporal> {
    let r = add_unchecked(t, &Duration { months: d.months.saturating_mul(sign), days: d.days.saturating_mul(sign), secs: d.secs, nanos: d.nanos }, sign);
    if let Some(day) = parts(&r).days {
        let (y, _, _) = civil_from_days(day);
        if !(-MAX_YEAR..=MAX_YEAR).contains(&y) {
            return Err(GqlError::argument("temporal arithmetic overflows the supported years"));
        }
    }
    Ok(r)
}

fn add_unchecked(t: &Temporal, d: &Duration, sign: i64) -> Temporal {
    let months = d.months;
    let days = d.days.clamp(-MAX_YEAR * 400, MAX_YEAR * 400);
    let nanos = d.total_nanos() * sign as i128;
    let shift_dt = |day: i64, n: i64| -> (i64, i64) {
        let day = add_months(day, months) + days;
        let total = day as i128 * NANOS_PER_DAY as i128 + n as i128 + nanos;
        (total.div_euclid(NANOS_PER_DAY as i128) as i64, total.rem_euclid(NANOS_PER_DAY as i128) as i64)
    };
    let shift_t = |n: i64| -> i64 { (n as i128 + nanos).rem_euclid(NANOS_PER_DAY as i128) as i64 };
    match t {
        Temporal::Date(day) => Temporal::Date(add_months(*day, months) + days + trunc_days(nanos)),
        Temporal::LocalTime(n) => Temporal::LocalTime(shift_t(*n)),
        Temporal::Time(n, o) => Temporal::Time(shift_t(*n), *o),
        Temporal::LocalDateTime(day, n) => {
            let (a, b) = shift_dt(*day, *n);
            Temporal::LocalDateTime(a, b)
        }
        Temporal::DateTime(day, n, o, z) => {
            let (a, b) = shift_dt(*day, *n);
            let o2 = match z {
                Some(zn) => zone_offset(zn, a, b).unwrap_or(*o),
                None => *o,
            };
            Temporal::DateTime(a, b, o2, z.clone())
        }
    }
}

/// Whole days in a nanosecond amount, truncated toward zero (a date ignores the rest).
fn trunc_days(nanos: i128) -> i64 {
    (nanos / NANOS_PER_DAY as i128) as i64
}

/// `a + b` and `a - b` of durations.
pub fn add_durations(a: &Duration, b: &Duration, sign: i64) -> Duration {
    Duration::norm(a.months.saturating_add(b.months.saturating_mul(sign)), a.days.saturating_add(b.days.saturating_mul(sign)), a.total_nanos() + sign as i128 * b.total_nanos())
}

/// `d * x` (or `d / x` with `divide`): fractions cascade to smaller units.
pub fn scale(d: &Duration, x: f64, divide: bool) -> Result<Duration> {
    if divide && x == 0.0 {
        return Err(GqlError::argument("division of a duration by zero"));
    }
    let f = |v: f64| if divide { v / x } else { v * x };
    let months = f(d.months as f64);
    let mw = months.trunc();
    let days = f(d.days as f64) + (months - mw) * 30.436_875;
    let dw = days.trunc();
    // The time part exactly when the factor is whole; fractions of a nanosecond truncate.
    let own: i128 =
        if x.fract() == 0.0 && x.abs() < 1e15 { if divide { d.total_nanos() / x as i128 } else { d.total_nanos() * x as i128 } } else { f(d.total_nanos() as f64).trunc() as i128 };
    let cascade = ((days - dw) * 86_400e9).round() as i128;
    Ok(Duration::norm(mw as i64, dw as i64, own + cascade))
}

// ---- duration.between and friends

fn instant_parts(t: &Temporal) -> (Option<i64>, Option<i64>, Option<i32>) {
    let p = parts(t);
    (p.days, p.nanos, p.offset)
}

/// `duration.between(a, b)`, `duration.inMonths`, `inDays`, `inSeconds`.
pub fn between(which: &str, a: &Temporal, b: &Temporal) -> Result<Value> {
    let (da, na, oa) = instant_parts(a);
    let (db, nb, ob) = instant_parts(b);
    // When both have an offset, compare in UTC; a missing part is taken from the other.
    let (mut da, mut na, mut db, mut nb) = (da, na, db, nb);
    if da.is_none() || db.is_none() {
        if (which == "inmonths" || which == "indays") && da.is_none() && db.is_none() {
            // Times only: no days or months between them.
            return Ok(Value::Duration(Duration::default()));
        }
        if da.is_none() {
            da = db;
        }
        if db.is_none() {
            db = da;
        }
    }
    let (da, db) = (da.unwrap_or(0), db.unwrap_or(0));
    if na.is_none() && nb.is_some() {
        na = Some(0);
    }
    if nb.is_none() && na.is_some() {
        nb = Some(0);
    }
    let (mut na, mut nb) = (na.unwrap_or(0), nb.unwrap_or(0));
    let (mut da, mut db) = (da, db);
    if let (Some(x), Some(y)) = (oa, ob) {
        let (d1, n1) = shift(da, na, -(x as i64));
        let (d2, n2) = shift(db, nb, -(y as i64));
        da = d1;
        na = n1;
        db = d2;
        nb = n2;
    }
    let ta = da as i128 * NANOS_PER_DAY as i128 + na as i128;
    let tb = db as i128 * NANOS_PER_DAY as i128 + nb as i128;
    match which {
        "inseconds" => Ok(Value::Duration(Duration::norm(0, 0, tb - ta))),
        "indays" => {
            let days = ((tb - ta) / NANOS_PER_DAY as i128) as i64;
            Ok(Value::Duration(Duration::norm(0, days, 0)))
        }
        _ => {
            // Whole months first (not overshooting), then days, then time.
            let (ya, ma, dda) = civil_from_days(da);
            let (yb, mb, ddb) = civil_from_days(db);
            let mut months = (yb - ya) * 12 + (mb - ma);
            let sign: i128 = if tb >= ta { 1 } else { -1 };
            let mid = |months: i64| -> i128 { add_months(da, months) as i128 * NANOS_PER_DAY as i128 + na as i128 };
            if sign > 0 {
                while months > 0 && mid(months) > tb {
                    months -= 1;
                }
            } else {
                while months < 0 && mid(months) < tb {
                    months += 1;
                }
            }
            let _ = (dda, ddb);
            if which == "inmonths" {
                return Ok(Value::Duration(Duration::norm(months, 0, 0)));
            }
            let rest = tb - mid(months);
            let days = (rest / NANOS_PER_DAY as i128) as i64;
            let rem = rest - days as i128 * NANOS_PER_DAY as i128;
            Ok(Value::Duration(Duration::norm(months, days, rem)))
        }
    }
}
