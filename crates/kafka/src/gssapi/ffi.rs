//! The system's GSS-API library (MIT Kerberos' `libgssapi_krb5.so.2`), loaded when GSSAPI is
//! first used: the build needs no Kerberos headers or libraries, and a machine without them runs
//! every other mechanism. The few calls used are declared here as RFC 2744 and MIT's
//! `gssapi_ext.h` (for `gss_acquire_cred_from`, MIT 1.11+) define them for LP64 Linux.
//!
//! Handles are owned by small wrappers that release them when dropped.

use std::ffi::{c_char, c_int, c_void, CString};
use std::ptr;
use std::sync::OnceLock;

/// The library's file name, as the MIT runtime package installs it.
pub const LIBRARY: &str = "libgssapi_krb5.so.2";

#[repr(C)]
struct Buffer {
    length: usize,
    value: *mut c_void,
}

impl Buffer {
    fn empty() -> Buffer {
        Buffer {
            length: 0,
            value: ptr::null_mut(),
        }
    }
    fn of(bytes: &[u8]) -> Buffer {
        Buffer {
            length: bytes.len(),
            value: bytes.as_ptr() as *mut c_void,
        }
    }
}

#[repr(C)]
struct Oid {
    length: u32,
    elements: *const c_void,
}

#[repr(C)]
struct KeyValue {
    key: *const c_char,
    value: *const c_char,
}

#[repr(C)]
struct KeyValueSet {
    count: u32,
    elements: *const KeyValue,
}

type Handle = *mut c_void;

/// The Kerberos 5 mechanism, 1.2.840.113554.1.2.2 (RFC 1964).
const KRB5_MECH: &[u8] = b"\x2a\x86\x48\x86\xf7\x12\x01\x02\x02";
/// GSS_C_NT_HOSTBASED_SERVICE, 1.2.840.113554.1.2.1.4: `service@host`.
const NT_HOSTBASED_SERVICE: &[u8] = b"\x2a\x86\x48\x86\xf7\x12\x01\x02\x01\x04";
/// GSS_KRB5_NT_PRINCIPAL_NAME, 1.2.840.113554.1.2.2.1: `name@REALM`.
const NT_KRB5_PRINCIPAL: &[u8] = b"\x2a\x86\x48\x86\xf7\x12\x01\x02\x02\x01";

fn oid(bytes: &'static [u8]) -> Oid {
    Oid {
        length: bytes.len() as u32,
        elements: bytes.as_ptr() as *const c_void,
    }
}

const GSS_C_INITIATE: c_int = 1;
const GSS_C_GSS_CODE: c_int = 1;
const GSS_C_MECH_CODE: c_int = 2;
const GSS_S_CONTINUE_NEEDED: u32 = 1;
/// Mutual authentication, confidentiality and integrity: what the JDK's GSSAPI SASL client
/// asks for (`GssKrb5Client`), so the broker sees the same request.
const REQUEST_FLAGS: u32 = 2 | 16 | 32;

fn is_error(major: u32) -> bool {
    major & 0xffff_0000 != 0
}

type ImportName = unsafe extern "C" fn(*mut u32, *mut Buffer, *const Oid, *mut Handle) -> u32;
type ReleaseHandle = unsafe extern "C" fn(*mut u32, *mut Handle) -> u32;
type AcquireCredFrom = unsafe extern "C" fn(
    *mut u32,
    Handle,
    u32,
    *const c_void,
    c_int,
    *const KeyValueSet,
    *mut Handle,
    *mut *mut c_void,
    *mut u32,
) -> u32;
type InitSecContext = unsafe extern "C" fn(
    *mut u32,
    Handle,
    *mut Handle,
    Handle,
    *const Oid,
    u32,
    u32,
    *const c_void,
    *mut Buffer,
    *mut *const Oid,
    *mut Buffer,
    *mut u32,
    *mut u32,
) -> u32;
type DeleteSecContext = unsafe extern "C" fn(*mut u32, *mut Handle, *mut Buffer) -> u32;
type Wrap =
    unsafe extern "C" fn(*mut u32, Handle, c_int, u32, *mut Buffer, *mut c_int, *mut Buffer) -> u32;
type Unwrap =
    unsafe extern "C" fn(*mut u32, Handle, *mut Buffer, *mut Buffer, *mut c_int, *mut u32) -> u32;
type ReleaseBuffer = unsafe extern "C" fn(*mut u32, *mut Buffer) -> u32;
type DisplayStatus =
    unsafe extern "C" fn(*mut u32, u32, c_int, *const Oid, *mut u32, *mut Buffer) -> u32;

/// The library's entry points.
pub struct Api {
    import_name: ImportName,
    release_name: ReleaseHandle,
    acquire_cred_from: AcquireCredFrom,
    release_cred: ReleaseHandle,
    init_sec_context: InitSecContext,
    delete_sec_context: DeleteSecContext,
    wrap: Wrap,
    unwrap: Unwrap,
    release_buffer: ReleaseBuffer,
    display_status: DisplayStatus,
}

/// Why the library could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No such library on this machine.
    Missing,
    /// The library lacks a call (an MIT Kerberos older than 1.11, or another implementation).
    Lacks(&'static str),
}

/// The system library, loaded once per process.
pub fn system() -> Result<&'static Api, LoadError> {
    static API: OnceLock<Result<Api, LoadError>> = OnceLock::new();
    API.get_or_init(|| load(LIBRARY))
        .as_ref()
        .map_err(Clone::clone)
}

/// Load `file` and look up every call. The handle stays open for the process's life.
pub fn load(file: &str) -> Result<Api, LoadError> {
    let name = CString::new(file).map_err(|_| LoadError::Missing)?;
    // SAFETY: dlopen with a valid C string; a null handle is checked.
    let lib = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if lib.is_null() {
        return Err(LoadError::Missing);
    }
    let find = |symbol: &'static str| -> Result<*mut c_void, LoadError> {
        let c = CString::new(symbol).map_err(|_| LoadError::Lacks(symbol))?;
        // SAFETY: a valid handle and C string; a null address is checked.
        let at = unsafe { libc::dlsym(lib, c.as_ptr()) };
        (!at.is_null())
            .then_some(at)
            .ok_or(LoadError::Lacks(symbol))
    };
    // SAFETY: each symbol is the C function RFC 2744 (or gssapi_ext.h) declares with exactly
    // the signature of its alias above.
    unsafe {
        Ok(Api {
            import_name: std::mem::transmute::<*mut c_void, ImportName>(find("gss_import_name")?),
            release_name: std::mem::transmute::<*mut c_void, ReleaseHandle>(find(
                "gss_release_name",
            )?),
            acquire_cred_from: std::mem::transmute::<*mut c_void, AcquireCredFrom>(find(
                "gss_acquire_cred_from",
            )?),
            release_cred: std::mem::transmute::<*mut c_void, ReleaseHandle>(find(
                "gss_release_cred",
            )?),
            init_sec_context: std::mem::transmute::<*mut c_void, InitSecContext>(find(
                "gss_init_sec_context",
            )?),
            delete_sec_context: std::mem::transmute::<*mut c_void, DeleteSecContext>(find(
                "gss_delete_sec_context",
            )?),
            wrap: std::mem::transmute::<*mut c_void, Wrap>(find("gss_wrap")?),
            unwrap: std::mem::transmute::<*mut c_void, Unwrap>(find("gss_unwrap")?),
            release_buffer: std::mem::transmute::<*mut c_void, ReleaseBuffer>(find(
                "gss_release_buffer",
            )?),
            display_status: std::mem::transmute::<*mut c_void, DisplayStatus>(find(
                "gss_display_status",
            )?),
        })
    }
}

/// A failed call: the call's name and what the library says about it (the GSS-API status and
/// the mechanism's, e.g. Kerberos' "Client not found in Kerberos database").
#[derive(Clone, Debug)]
pub struct GssError {
    pub call: &'static str,
    pub message: String,
}

/// GSS_S_FAILURE: "Unspecified GSS failure", whose mechanism status says what happened.
const GSS_S_FAILURE: u32 = 13 << 16;

impl Api {
    fn error(&self, call: &'static str, major: u32, minor: u32) -> GssError {
        let mech = self.status_text(minor, GSS_C_MECH_CODE);
        let message = if major & 0x00ff_0000 == GSS_S_FAILURE && !mech.is_empty() {
            mech
        } else if mech.is_empty() || minor == 0 {
            self.status_text(major, GSS_C_GSS_CODE)
        } else {
            format!("{}: {mech}", self.status_text(major, GSS_C_GSS_CODE))
        };
        GssError { call, message }
    }

    /// Every message the library has for one status value, joined.
    fn status_text(&self, status: u32, kind: c_int) -> String {
        let mech = oid(KRB5_MECH);
        let mut parts = Vec::new();
        let mut context = 0u32;
        for _ in 0..8 {
            let mut minor = 0;
            let mut text = Buffer::empty();
            // SAFETY: out-parameters are valid; the buffer is released below.
            let major = unsafe {
                (self.display_status)(&mut minor, status, kind, &mech, &mut context, &mut text)
            };
            if is_error(major) {
                break;
            }
            parts.push(self.take(&mut text));
            if context == 0 {
                break;
            }
        }
        parts.retain(|p| !p.trim().is_empty());
        parts
            .iter()
            .map(|p| p.trim().to_string())
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The buffer's bytes as text (lossy), and the buffer released.
    fn take(&self, b: &mut Buffer) -> String {
        String::from_utf8_lossy(&self.take_bytes(b)).into_owned()
    }

    fn take_bytes(&self, b: &mut Buffer) -> Vec<u8> {
        let bytes = if b.value.is_null() || b.length == 0 {
            Vec::new()
        } else {
            // SAFETY: the library filled `b` with `length` readable bytes.
            unsafe { std::slice::from_raw_parts(b.value as *const u8, b.length) }.to_vec()
        };
        let mut minor = 0;
        // SAFETY: `b` came from the library (or is empty, which it ignores).
        unsafe { (self.release_buffer)(&mut minor, b) };
        bytes
    }

    /// A Kerberos principal (`name@REALM`, or `name` in the default realm).
    pub fn principal(&'static self, text: &str) -> Result<Name, GssError> {
        self.import(text, NT_KRB5_PRINCIPAL)
    }

    /// A service on a host (`service@host`), which the library turns into `service/host@REALM`.
    pub fn host_service(&'static self, service: &str, host: &str) -> Result<Name, GssError> {
        self.import(&format!("{service}@{host}"), NT_HOSTBASED_SERVICE)
    }

    fn import(&'static self, text: &str, kind: &'static [u8]) -> Result<Name, GssError> {
        let (mut minor, mut handle) = (0, ptr::null_mut());
        let mut input = Buffer::of(text.as_bytes());
        let kind = oid(kind);
        // SAFETY: the input buffer borrows `text` for the call; the library copies it.
        let major = unsafe { (self.import_name)(&mut minor, &mut input, &kind, &mut handle) };
        if is_error(major) {
            return Err(self.error("gss_import_name", major, minor));
        }
        Ok(Name { api: self, handle })
    }

    /// Initiator credentials for `name` (the default principal when `None`), from the credential
    /// store's elements (MIT's `client_keytab`, `ccache`).
    pub fn credentials(
        &'static self,
        name: Option<&Name>,
        store: &[(&str, &str)],
    ) -> Result<Credentials, GssError> {
        let owned: Vec<(CString, CString)> = store
            .iter()
            .filter_map(|(k, v)| Some((CString::new(*k).ok()?, CString::new(*v).ok()?)))
            .collect();
        let elements: Vec<KeyValue> = owned
            .iter()
            .map(|(k, v)| KeyValue {
                key: k.as_ptr(),
                value: v.as_ptr(),
            })
            .collect();
        let set = KeyValueSet {
            count: elements.len() as u32,
            elements: elements.as_ptr(),
        };
        let (mut minor, mut handle) = (0, ptr::null_mut());
        let desired = name.map_or(ptr::null_mut(), |n| n.handle);
        // SAFETY: the store's strings live until the call returns; out-parameters are valid
        // (the actual mechanisms and lifetime are not wanted: null).
        let major = unsafe {
            (self.acquire_cred_from)(
                &mut minor,
                desired,
                0,
                ptr::null(),
                GSS_C_INITIATE,
                &set,
                &mut handle,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        if is_error(major) {
            return Err(self.error("gss_acquire_cred_from", major, minor));
        }
        Ok(Credentials { api: self, handle })
    }
}

/// An imported name, released when dropped.
pub struct Name {
    api: &'static Api,
    handle: Handle,
}

impl Drop for Name {
    fn drop(&mut self) {
        let mut minor = 0;
        // SAFETY: a handle gss_import_name returned, released once.
        unsafe { (self.api.release_name)(&mut minor, &mut self.handle) };
    }
}

/// Initiator credentials, released when dropped.
pub struct Credentials {
    api: &'static Api,
    handle: Handle,
}

impl Drop for Credentials {
    fn drop(&mut self) {
        let mut minor = 0;
        // SAFETY: a handle gss_acquire_cred_from returned, released once.
        unsafe { (self.api.release_cred)(&mut minor, &mut self.handle) };
    }
}

/// A security context being established with one broker, deleted when dropped.
pub struct Context {
    api: &'static Api,
    handle: Handle,
    complete: bool,
}

/// SAFETY (for the three `Send`s): MIT's handles belong to no thread; each wrapper is their
/// only owner, so one thread at a time uses them, which is all the library asks. A connection
/// is opened on one task that the runtime may move between threads.
unsafe impl Send for Name {}
unsafe impl Send for Credentials {}
unsafe impl Send for Context {}

impl Context {
    pub fn new(api: &'static Api) -> Context {
        Context {
            api,
            handle: ptr::null_mut(),
            complete: false,
        }
    }

    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// One step of `gss_init_sec_context`: the token to send (maybe empty), given the
    /// server's last token (empty at first). Contacts the KDC on the first step.
    pub fn step(
        &mut self,
        cred: &Credentials,
        target: &Name,
        input: &[u8],
    ) -> Result<Vec<u8>, GssError> {
        let mech = oid(KRB5_MECH);
        let mut input = Buffer::of(input);
        let mut output = Buffer::empty();
        let mut minor = 0;
        // SAFETY: valid handles, the input buffer borrows `input` for the call, out-parameters
        // are valid (actual mechanism, flags and lifetime are not wanted: null).
        let major = unsafe {
            (self.api.init_sec_context)(
                &mut minor,
                cred.handle,
                &mut self.handle,
                target.handle,
                &mech,
                REQUEST_FLAGS,
                0,
                ptr::null(),
                &mut input,
                ptr::null_mut(),
                &mut output,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        let token = self.api.take_bytes(&mut output);
        if is_error(major) {
            return Err(self.api.error("gss_init_sec_context", major, minor));
        }
        self.complete = major & 0xffff != GSS_S_CONTINUE_NEEDED;
        Ok(token)
    }

    /// `gss_wrap` without confidentiality (integrity only), as the JDK's client wraps the
    /// security-layer reply.
    pub fn wrap(&self, message: &[u8]) -> Result<Vec<u8>, GssError> {
        let mut input = Buffer::of(message);
        let mut output = Buffer::empty();
        let (mut minor, mut conf) = (0, 0);
        // SAFETY: an established context; buffers as above.
        let major = unsafe {
            (self.api.wrap)(
                &mut minor,
                self.handle,
                0,
                0,
                &mut input,
                &mut conf,
                &mut output,
            )
        };
        let token = self.api.take_bytes(&mut output);
        if is_error(major) {
            return Err(self.api.error("gss_wrap", major, minor));
        }
        Ok(token)
    }

    pub fn unwrap(&self, token: &[u8]) -> Result<Vec<u8>, GssError> {
        let mut input = Buffer::of(token);
        let mut output = Buffer::empty();
        let (mut minor, mut conf, mut qop) = (0, 0, 0);
        // SAFETY: an established context; buffers as above.
        let major = unsafe {
            (self.api.unwrap)(
                &mut minor,
                self.handle,
                &mut input,
                &mut output,
                &mut conf,
                &mut qop,
            )
        };
        let message = self.api.take_bytes(&mut output);
        if is_error(major) {
            return Err(self.api.error("gss_unwrap", major, minor));
        }
        Ok(message)
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        if self.handle.is_null() {
            return;
        }
        let mut minor = 0;
        // SAFETY: a handle gss_init_sec_context made, deleted once; no output token wanted.
        unsafe { (self.api.delete_sec_context)(&mut minor, &mut self.handle, ptr::null_mut()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_is_told_apart_from_an_old_one() {
        assert_eq!(
            load("libgssapi_krb5_not_here.so.9").err(),
            Some(LoadError::Missing)
        );
        // The C library is there, without any GSS-API call.
        assert_eq!(
            load("libc.so.6").err(),
            Some(LoadError::Lacks("gss_import_name"))
        );
    }

    #[test]
    fn the_oids_are_the_registered_ones() {
        // 1.2.840.113554.1.2.2: 1*40+2 = 0x2a, 840 = 0x86 0x48, 113554 = 0x86 0xf7 0x12.
        assert_eq!(KRB5_MECH.len(), 9);
        assert_eq!(&NT_HOSTBASED_SERVICE[..8], &KRB5_MECH[..8]);
        assert_eq!(NT_KRB5_PRINCIPAL[..9], KRB5_MECH[..]);
    }
}
