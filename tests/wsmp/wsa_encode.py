#!/usr/bin/python3
"""Encodes the test WSAs (IEEE 1609.3-2020 SrvAdvMsg, UPER) with the field values in WSA
and WSA_EDCA below and prints one as hex: this is how the payloads were made
(`wsa_encode.py > captures/payloads/wsa-basic.hex`,
`wsa_encode.py --edca > captures/payloads/wsa-edca.hex`). The WSA tests assert the same
values, read from this module, in tshark's decode.

The encoder follows Ieee1609Dot3Wsa.asn / Ieee1609Dot3Wee.asn clause by clause; it is
written independently of the plugin's C walk (different language, writer not reader)."""
import argparse
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

# The EDCA parameter set (element 12, in a channel info) and the extended channel infos
# (element 84, a header extension: an M5 ChannelInfo and an LTE-V2X one). Each EDCA
# record differs from the others in every field but res, so a shifted or swapped record
# shows. txop_limit is in 32 us units.
WSA_EDCA = {
    "version": 3,
    "id": 9,
    "content_count": 2,
    "repeat_rate": 10,
    "ext_channels": [
        {"med_id": 5, "channel": {"operating_class": 17, "channel": 184, "power": 20,
                                  "adaptable": 0, "data_rate": 6, "channel_access": 2}},
        {"med_id": 12, "lte_v2x": {"tx_pool_earfcn": 54590, "p_max": 23, "min_mcs": 3,
                                   "max_mcs": 20}},
    ],
    "services": [
        {"psid": 0x20, "channel_index": 1},
    ],
    "channels": [
        {"operating_class": 17, "channel": 172, "power": 23, "adaptable": 1,
         "data_rate": 12, "channel_access": 0,
         "edca": [  # record order: AC_BE, AC_BK, AC_VI, AC_VO
             {"res": 0, "aci": 0, "acm": 0, "aifsn": 6, "ecw_max": 10, "ecw_min": 4,
              "txop_limit": 0},
             {"res": 0, "aci": 1, "acm": 0, "aifsn": 9, "ecw_max": 9, "ecw_min": 5,
              "txop_limit": 11},
             {"res": 0, "aci": 2, "acm": 1, "aifsn": 3, "ecw_max": 4, "ecw_min": 3,
              "txop_limit": 94},
             {"res": 0, "aci": 3, "acm": 1, "aifsn": 2, "ecw_max": 3, "ecw_min": 2,
              "txop_limit": 47},
         ]},
    ],
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


def edca_set(x, records):
    """EdcaParameterSet: four EdcaParameterRecords, 32 bits each (not extensible)."""
    for r in records:
        x.put(r["res"], 1)
        x.put(r["aci"], 2)
        x.put(r["acm"], 1)
        x.put(r["aifsn"], 4)
        x.put(r["ecw_max"], 4)
        x.put(r["ecw_min"], 4)
        x.put(r["txop_limit"], 16)


def channel_info(b, c):
    """ChannelInfo: an item of the channel infos or an M5 extended channel info."""
    b.put(c["operating_class"], 8)
    b.put(c["channel"], 8)
    b.put(c["power"] + 128, 8)
    b.put(c["adaptable"], 1)
    b.put(c["data_rate"], 7)
    exts = []
    if "edca" in c:
        exts.append((12, lambda x: edca_set(x, c["edca"])))
    if "channel_access" in c:
        exts.append((21, lambda x: x.put(c["channel_access"], 8)))
    b.put(1 if exts else 0, 8)  # option1..7 absent; extensions
    if exts:
        extensions(b, exts)


def lte_v2x(v):
    """LTEv2xChannelInfo with txPoolEarfcn, pMax, minMcs and maxMcs present, as octets."""
    x = Bits()
    x.put(0, 1)  # extension bit
    x.put(0b11001100000000, 14)  # the 14 OPTIONAL fields: 1st, 2nd, 5th, 6th present
    x.put(v["tx_pool_earfcn"], 18)  # ARFCN-ValueEUTRA-r9 (0..262143)
    x.put(v["p_max"] + 30, 6)  # P-Max (-30..33)
    x.put(v["min_mcs"], 5)
    x.put(v["max_mcs"], 5)
    return x.padded()


def ext_channel_infos(x, items):
    """ExtendedChannelInfos: count, then medId + open type each."""
    x.length(len(items))
    for item in items:
        inner = Bits()
        if item["med_id"] == 5:
            channel_info(inner, item["channel"])
        else:
            inner.octets(lte_v2x(item["lte_v2x"]))
        value = inner.padded()
        x.put(item["med_id"], 8)
        x.length(len(value))
        x.octets(value)


def header_extensions(w):
    """The SrvAdvMsgHeaderExts the WSA has values for, as (id, encode) pairs."""
    def location(x):
        x.put(0, 1)
        x.put(w["latitude"] + 900000000, 31)
        x.put(w["longitude"] + 1799999999, 32)
        x.put(w["elevation"] + 4096, 16)

    def advertiser(x):
        name = w["advertiser_id"].encode()
        x.length(len(name))
        x.octets(name)

    items = []
    if "repeat_rate" in w:
        items.append((17, lambda x: x.put(w["repeat_rate"], 8)))
    if "latitude" in w:
        items.append((6, location))
    if "advertiser_id" in w:
        items.append((7, advertiser))
    if "ext_channels" in w:
        items.append((84, lambda x: ext_channel_infos(x, w["ext_channels"])))
    return items


def service_info(b, s):
    b.varlen(s["psid"])
    b.put(s["channel_index"], 5)
    exts = []
    if "service_port" in s:
        exts = [(10, lambda x: x.put(s["service_port"], 16)),
                (11, lambda x: x.octets(mac(s["mac"]))),
                (19, lambda x: x.put(s["rcpi_threshold"], 8))]
    b.put(1 if exts else 0, 3)  # reserved1, reserved2 absent; extensions
    if exts:
        extensions(b, exts)


def routing_advertisement(b, r):
    b.put(r["lifetime"], 16)
    b.octets(ipv6(r["prefix"]))
    b.put(r["prefix_length"], 8)
    b.octets(ipv6(r["gateway"]))
    b.octets(ipv6(r["dns"]))
    extensions(b, [(13, lambda x: x.octets(ipv6(r["secondary_dns"])))])


def encode(w):
    b = Bits()
    header = header_extensions(w)
    b.put(w["version"], 4)
    # presence bits: header extensions, service infos, channel infos, routing
    for present in (header, "services" in w, "channels" in w, "routing" in w):
        b.put(1 if present else 0, 1)
    b.put(w["id"], 4)
    b.put(w["content_count"], 4)
    if header:
        extensions(b, header)
    for part, item in (("services", service_info), ("channels", channel_info)):
        if part in w:
            b.length(len(w[part]))
            for x in w[part]:
                item(b, x)
    if "routing" in w:
        routing_advertisement(b, w["routing"])
    return b.padded()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edca", action="store_true", help="the WSA_EDCA message (wsa-edca.hex)")
    sys.stdout.write(encode(WSA_EDCA if ap.parse_args().edca else WSA).hex() + "\n")
