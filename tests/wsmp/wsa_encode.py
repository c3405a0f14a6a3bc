#!/usr/bin/python3
"""Encodes the test WSA (IEEE 1609.3-2020 SrvAdvMsg, UPER) with the field values in WSA
below and prints it as hex: this is how captures/payloads/wsa-basic.hex was made
(`wsa_encode.py > captures/payloads/wsa-basic.hex`). The WSA test asserts the same
values, read from this module, in tshark's decode.

The encoder follows Ieee1609Dot3Wsa.asn / Ieee1609Dot3Wee.asn clause by clause; it is
written independently of the plugin's C walk (different language, writer not reader)."""
import ipaddress
import sys

WSA = {
    "version": 3,
    "id": 5,
    "content_count": 7,
    "repeat_rate": 50,
    "latitude": 421234567,      # 0.1 micro degree
    "longitude": -834567890,
    "elevation": 2500,          # 0.1 m
    "advertiser_id": "RSU-42",
    "services": [
        {"psid": 0x20, "channel_index": 1},
        {"psid": 0x8010, "channel_index": 1, "service_port": 16092,
         "mac": "02:00:00:00:0a:01", "rcpi_threshold": 30},
    ],
    "channels": [
        {"operating_class": 17, "channel": 172, "power": 23, "adaptable": 1,
         "data_rate": 12, "channel_access": 0},
    ],
    "routing": {
        "lifetime": 3600, "prefix": "2001:db8:1::", "prefix_length": 64,
        "gateway": "2001:db8:1::1", "dns": "2001:db8:1::53",
        "secondary_dns": "2001:db8:1::54",
    },
}


class Bits:
    """MSB-first bit writer."""

    def __init__(self):
        self.bits = []

    def put(self, value, n):
        self.bits += [(value >> (n - 1 - i)) & 1 for i in range(n)]

    def octets(self, data):
        for b in data:
            self.put(b, 8)

    def length(self, n):  # X.691 11.9 unconstrained length, n < 16384
        if n < 128:
            self.put(n, 8)
        else:
            self.put(0x8000 | n, 16)

    def varlen(self, v):  # VarLengthNumber (p-encoding)
        for base, prefix, nbits in ((0, 0b0, 1), (128, 0b10, 2), (16512, 0b110, 3)):
            if v < base + (1 << (8 * nbits - nbits)):
                self.put(prefix, nbits)
                self.put(v - base, 8 * nbits - nbits)
                return
        self.put(0b1110, 4)  # Ext3: choice bits, extension bit 0, 28 bits
        self.put(v - 2113664, 28)

    def padded(self):
        bits = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def extensions(b, items):
    """SEQUENCE OF Extension: count, then id + open type (length + padded octets)."""
    b.length(len(items))
    for ext_id, encode in items:
        inner = Bits()
        encode(inner)
        value = inner.padded()
        b.put(ext_id, 8)
        b.length(len(value))
        b.octets(value)


def mac(text):
    return bytes(int(x, 16) for x in text.split(":"))


def ipv6(text):
    return ipaddress.IPv6Address(text).packed


def encode(w):
    b = Bits()
    b.put(w["version"], 4)
    b.put(0b1111, 4)  # header extensions, service infos, channel infos, routing present
    b.put(w["id"], 4)
    b.put(w["content_count"], 4)

    def location(x):
        x.put(0, 1)
        x.put(w["latitude"] + 900000000, 31)
        x.put(w["longitude"] + 1799999999, 32)
        x.put(w["elevation"] + 4096, 16)

    def advertiser(x):
        name = w["advertiser_id"].encode()
        x.length(len(name))
        x.octets(name)

    extensions(b, [(17, lambda x: x.put(w["repeat_rate"], 8)), (6, location), (7, advertiser)])

    b.length(len(w["services"]))
    for s in w["services"]:
        b.varlen(s["psid"])
        b.put(s["channel_index"], 5)
        exts = []
        if "service_port" in s:
            exts = [(10, lambda x, s=s: x.put(s["service_port"], 16)),
                    (11, lambda x, s=s: x.octets(mac(s["mac"]))),
                    (19, lambda x, s=s: x.put(s["rcpi_threshold"], 8))]
        b.put(1 if exts else 0, 3)  # reserved1, reserved2 absent; extensions
        if exts:
            extensions(b, exts)

    b.length(len(w["channels"]))
    for c in w["channels"]:
        b.put(c["operating_class"], 8)
        b.put(c["channel"], 8)
        b.put(c["power"] + 128, 8)
        b.put(c["adaptable"], 1)
        b.put(c["data_rate"], 7)
        b.put(1, 8)  # option1..7 absent, extensions present
        extensions(b, [(21, lambda x, c=c: x.put(c["channel_access"], 8))])

    r = w["routing"]
    b.put(r["lifetime"], 16)
    b.octets(ipv6(r["prefix"]))
    b.put(r["prefix_length"], 8)
    b.octets(ipv6(r["gateway"]))
    b.octets(ipv6(r["dns"]))
    extensions(b, [(13, lambda x: x.octets(ipv6(r["secondary_dns"])))])
    return b.padded()


if __name__ == "__main__":
    sys.stdout.write(encode(WSA).hex() + "\n")
