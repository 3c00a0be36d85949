//! The machine's network addresses, for the teacher to choose which one the class listens
//! on (a laptop often has several: the room's Wi-Fi, a cable, a VPN, loopback).

pub use crate::state::class::Interface;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The addresses of the interfaces that are up, that students could reach: IPv4 first,
/// then IPv6 (without link-local addresses, which a browser's address bar cannot take),
/// loopback last of each. Empty if the system would not say.
#[cfg(unix)]
pub fn interfaces() -> Vec<Interface> {
    let mut found = Vec::new();
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list` with a linked list that stays valid until
    // freeifaddrs, which is called once below; each node and the strings and addresses it
    // points to are only read before that, and each address is read as the type its
    // family says it is.
    unsafe {
        if libc::getifaddrs(&mut list) != 0 {
            return found;
        }
        let mut node = list;
        while let Some(entry) = node.as_ref() {
            node = entry.ifa_next;
            let up = entry.ifa_flags & (libc::IFF_UP as libc::c_uint) != 0;
            if !up || entry.ifa_addr.is_null() || entry.ifa_name.is_null() {
                continue;
            }
            let ip = match i32::from((*entry.ifa_addr).sa_family) {
                libc::AF_INET => {
                    let address = &*entry.ifa_addr.cast::<libc::sockaddr_in>();
                    IpAddr::V4(Ipv4Addr::from(u32::from_be(address.sin_addr.s_addr)))
                }
                libc::AF_INET6 => {
                    let address = &*entry.ifa_addr.cast::<libc::sockaddr_in6>();
                    IpAddr::V6(Ipv6Addr::from(address.sin6_addr.s6_addr))
                }
                _ => continue,
            };
            let name = std::ffi::CStr::from_ptr(entry.ifa_name)
                .to_string_lossy()
                .into_owned();
            found.push(Interface { name, ip });
        }
        libc::freeifaddrs(list);
    }
    arrange(found)
}

/// Without getifaddrs only loopback is known; the class's addresses add the one the
/// route out leaves from.
#[cfg(not(unix))]
pub fn interfaces() -> Vec<Interface> {
    vec![Interface {
        name: String::new(),
        ip: IpAddr::V4(Ipv4Addr::LOCALHOST),
    }]
}

/// Leaves out what a browser cannot be pointed at and puts the likeliest first.
fn arrange(mut found: Vec<Interface>) -> Vec<Interface> {
    found.retain(|i| match i.ip {
        IpAddr::V4(v4) => !v4.is_unspecified(),
        // Link-local addresses need a zone in the address (`%eth0`), which browsers refuse.
        IpAddr::V6(v6) => !v6.is_unspecified() && !v6.is_unicast_link_local(),
    });
    found.sort_by_key(|i| (i.ip.is_ipv6(), i.ip.is_loopback()));
    found.dedup_by(|a, b| a.ip == b.ip);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_listed_last_of_its_family_and_nothing_unreachable() {
        let found = interfaces();
        // Every Linux machine (and CI container) has loopback.
        let loopback = found
            .iter()
            .position(|i| i.ip == IpAddr::V4(Ipv4Addr::LOCALHOST))
            .expect("127.0.0.1 listed");
        assert!(!found[loopback].name.is_empty());
        assert!(
            found[..loopback]
                .iter()
                .all(|i| i.ip.is_ipv4() && !i.ip.is_loopback())
        );
        assert!(found.iter().all(|i| !i.ip.is_unspecified()));
        // Each listed address can be bound, as the class will.
        for interface in &found {
            if interface.ip.is_ipv4() {
                assert!(
                    std::net::TcpListener::bind((interface.ip, 0)).is_ok(),
                    "{interface:?}"
                );
            }
        }
    }

    #[test]
    fn link_local_and_unspecified_addresses_are_left_out() {
        let named = |ip: &str| Interface {
            name: "x".into(),
            ip: ip.parse().unwrap(),
        };
        let arranged = arrange(vec![
            named("::1"),
            named("fe80::1"),
            named("127.0.0.1"),
            named("2001:db8::5"),
            named("0.0.0.0"),
            named("192.168.1.20"),
            named("192.168.1.20"),
        ]);
        let ips: Vec<String> = arranged.iter().map(|i| i.ip.to_string()).collect();
        assert_eq!(ips, ["192.168.1.20", "127.0.0.1", "2001:db8::5", "::1"]);
    }
}
