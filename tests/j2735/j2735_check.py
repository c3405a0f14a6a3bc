#!/usr/bin/python3
"""Test driver for the J2735 Wireshark plugin: runs tshark (through tests/run-tshark, with
the build's plugins) on the sample captures and compares what it decodes with the
independent decodes in tests/vectors (XER, the carma-messenger expectations).

usage: j2735_check.py --run-tshark R --plugins DIR --captures DIR --vectors DIR
                      --edition E TEST [ARGS]
Exit 0 pass, 1 fail, 77 skip (no schema, no vectors, no tool).
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tshark_driver  # noqa: E402  (tests/tshark_driver.py: the shared options)

SKIP = 77
INT_TYPES = ('FT_INT', 'FT_UINT')


class Fail(Exception):
    pass


class Skip(Exception):
    pass


class Tshark:
    def __init__(self, args):
        self.args = args
        self._ftypes = None

    def run(self, *argv, check=True, timeout=120):
        cmd = [self.args.run_tshark, self.args.plugins] + list(argv)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if check and p.returncode != 0:
            raise Fail('tshark %s failed (%d): %s' % (' '.join(argv), p.returncode, p.stderr))
        return p

    def glossary(self):
        """`tshark -G fields`, cached per plugin build (it costs a tshark start)."""
        so = [os.path.join(d, f) for d, _, fs in os.walk(self.args.plugins) for f in fs
              if f == 'j2735.so']
        key = hashlib.sha1(repr([(p, os.stat(p).st_mtime_ns) for p in so]).encode())
        path = os.path.join(tempfile.gettempdir(), 'j2735-fields-%s.tsv' % key.hexdigest())
        if os.path.exists(path):
            return open(path).read()
        out = self.run('-G', 'fields').stdout
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
        with os.fdopen(fd, 'w') as f:
            f.write(out)
        os.replace(tmp, path)
        return out

    def ftypes(self):
        """Field abbreviation -> FT_ type of every j2735 field."""
        if self._ftypes is None:
            out = self.glossary()
            self._ftypes = {}
            for line in out.splitlines():
                cols = line.split('\t')
                if len(cols) > 3 and cols[0] == 'F' and cols[2].startswith('j2735'):
                    self._ftypes[cols[2]] = cols[3]
        return self._ftypes

    @staticmethod
    def first_show(pdml_text, name, frame):
        packet = ET.fromstring(pdml_text).findall('packet')[frame]
        f = next((f for f in packet.iter('field') if f.get('name') == name), None)
        return f.get('show') if f is not None else ''

    def fields(self, capture, names, *extra):
        out = self.run('-r', capture, '-T', 'fields', '-E', 'occurrence=f',
                       *[a for n in names for a in ('-e', n)], *extra).stdout
        return [line.split('\t') for line in out.splitlines()]


def capture(args, name):
    path = os.path.join(args.captures, name)
    if not os.path.exists(path):
        raise Fail('capture %s missing' % path)
    return path


def vector(args, name):
    return os.path.join(args.vectors, name)


# --- XER against the plugin's fields -------------------------------------------------

def xer_leaves(elem):
    """(tag, text) of the leaves holding a value, in encoding order."""
    out = []
    for e in elem.iter():
        text = (e.text or '').strip()
        if len(e) == 0 and text and e is not elem:
            if re.fullmatch(r'[0-9A-Fa-f\s]+', text):  # octets and bits come spaced out
                text = re.sub(r'\s+', '', text)
            out.append((e.tag, text))
    return out


def pdml_leaves(pdml_text, ftypes, frame):
    """(last name component, show, ftype, has children) of the j2735 value fields."""
    root = ET.fromstring(pdml_text)
    packets = root.findall('packet')
    out = []
    for f in packets[frame].iter('field'):
        name = f.get('name', '')
        ft = ftypes.get(name)
        if not ft or name in ('j2735.msgid', 'j2735.length', 'j2735.ext', 'j2735.psid'):
            continue
        out.append((name.split('.')[-1], f.get('show', ''), ft, len(f) > 0))
    return out


def same_value(xer, show, ft):
    if ft.startswith(INT_TYPES):
        return re.fullmatch(r'-?\d+', xer) is not None and int(xer) == int(show)
    if ft == 'FT_BYTES':
        raw = show.replace(':', '')
        if re.fullmatch(r'[01]+', xer):  # a BIT STRING, or octets that look like one
            nbytes = (len(xer) + 7) // 8
            if len(raw) == 2 * nbytes and int(raw, 16) == int(xer.ljust(nbytes * 8, '0'), 2):
                return True
        return raw.lower() == xer.lower()
    if ft == 'FT_STRING':
        return show == xer
    if ft == 'FT_BOOLEAN':
        return xer.lower() in ('true', 'false') and (show in ('1', 'True')) == (xer == 'true')
    return False


# One component, named differently by the schemas of the decoders that wrote the XER
# (jpo-ode: 2024's doNotUse1, asn1_codec: notUsed); the plugin names it as 2020 does in every
# edition (asn1/stable-member-names.txt).
SAME_COMPONENT = [
    ('doNotUse1', 'notUsed'),
    ('doNotUse2', 'notUsed1'),
    ('doNotUse3', 'notUsed2'),
    ('doNotUse4', 'notUsed3'),
]
ALIASES = {name: group for group in SAME_COMPONENT for name in group}

# Leaves the reference decoders get wrong: consumed in order, not compared.
XER_DEFECTS = {
    # the ODE's output has a timestamp pasted into this 8-bit LaneAttributes-Vehicle
    ('vehicle', '00002024-12-10T17:32:22.099782646Z 0000'),
}
# The reserved SSP-index components of a TravelerDataFrame: both reference decoders print
# 0 whatever the 5 bits hold, while every field before and after them agrees bit for bit.
XER_ZEROED = set(SAME_COMPONENT[0] + SAME_COMPONENT[1] + SAME_COMPONENT[2] + SAME_COMPONENT[3])


def compare_xer(t, args, cap, frame_elem, frame=0, minimum=10, tshark_args=()):
    """The messageId and every value leaf of the message's XER equal the field of that
    name, occurrence by occurrence, and none is missing."""
    ftypes = t.ftypes()
    ftypes['j2735.msgid'] = 'FT_UINT16'
    pdml = t.run('-r', cap, '-T', 'pdml', *tshark_args).stdout
    fields = pdml_leaves(pdml, ftypes, frame)
    fields.insert(0, ('messageId', t.first_show(pdml, 'j2735.msgid', frame), 'FT_UINT16', False))
    used = [False] * len(fields)
    compared = 0
    bad = []
    leaves = [('messageId', frame_elem.findtext('messageId'))] + \
        xer_leaves(frame_elem.find('value')[0])
    for tag, text in leaves:
        names = {n.replace('-', '_') for n in ALIASES.get(tag, (tag,))}
        for i, (fname, show, ft, kids) in enumerate(fields):
            if used[i] or fname not in names or (kids and not ft == 'FT_BYTES'):
                continue
            used[i] = True
            if (tag, text) in XER_DEFECTS or (tag in XER_ZEROED and text == '0'):
                print('not compared (damaged XER): %s %s' % (tag, text))
            elif same_value(text, show, ft):
                compared += 1
            else:
                bad.append('%s: XER %s, tshark %s (%s)' % (tag, text, show, ft))
            break
        else:
            bad.append('%s: XER %s, no such field decoded' % (tag, text))
    if bad:
        raise Fail('%d field(s) differ from the XER decode:\n  %s' % (len(bad), '\n  '.join(bad)))
    if compared < min(minimum, len(leaves)):
        raise Fail('only %d fields compared (want >= %d)' % (compared, minimum))
    print('%s: %d fields equal to the independent decode' % (os.path.basename(cap), compared))


def test_xer(t, args, cap_name, xer_name):
    root = ET.parse(vector(args, xer_name)).getroot()
    frame = root if root.tag == 'MessageFrame' else root.find('.//MessageFrame')
    compare_xer(t, args, capture(args, cap_name), frame)


def test_bsm128(t, args):
    text = open(vector(args, 'asn1_codec/j2735.MessageFrame.128.bsms.xer')).read()
    frames = re.findall(r'<MessageFrame>.*?</MessageFrame>', text, re.S)
    want = []
    for f in frames:
        core = ET.fromstring(f).find('.//coreData')
        want.append((core.findtext('id').replace(' ', '').lower(), core.findtext('msgCnt')))
    rows = t.fields(capture(args, 'bsm-128.pcap'),
                    ['j2735.BSMcoreData.id', 'j2735.BSMcoreData.msgCnt'])
    got = [(r[0].replace(':', '').lower(), r[1]) for r in rows]
    if len(want) != 128 or got != want:
        diff = [(i + 1, w, g) for i, (w, g) in enumerate(zip(want, got)) if w != g]
        raise Fail('%d XER frames, %d decoded; differences (frame, XER, tshark): %s'
                   % (len(want), len(got), diff[:5]))
    print('128 BSM ids and msgCnt equal to the XER decode')


# --- carma-messenger vectors: bytes and expected values from their unit tests --------

def udp_capture(tmp, payload, name):
    """Wraps J2735 octets in Ethernet/IPv4/UDP (port 47347) with text2pcap."""
    if not shutil.which('text2pcap'):
        raise Skip('text2pcap not installed')
    txt = os.path.join(tmp, name + '.txt')
    pcap = os.path.join(tmp, name + '.pcap')
    with open(txt, 'w') as f:
        f.write('000000 ' + ' '.join('%02x' % b for b in payload) + '\n')
    subprocess.run(['text2pcap', '-q', '-u', '47347,47347', txt, pcap], check=True)
    os.chmod(pcap, 0o644)
    os.chmod(tmp, 0o755)
    return pcap


CARMA_VECTORS = {'bsm': 'BSM.hex', 'psm': 'PSM.hex', 'map': 'MapMessage.hex', 'spat': 'SPAT.hex'}


def test_carma(t, args, kind, expected):
    """expected: field -> value as the carma-messenger test asserts it."""
    with open(vector(args, 'carma-messenger/' + CARMA_VECTORS[kind])) as f:
        payload = bytes.fromhex(f.read())
    with tempfile.TemporaryDirectory() as tmp:
        cap = udp_capture(tmp, payload, kind)
        names = list(expected)
        rows = t.fields(cap, names, '-d', 'udp.port==47347,j2735')
        if not rows:
            raise Fail('no packet decoded')
        got = dict(zip(names, rows[0]))
        bad = ['%s: want %s, got %s' % (n, v, got.get(n)) for n, v in expected.items()
               if got.get(n, '').replace(':', '').lower() != str(v).lower()]
        if bad:
            raise Fail('\n  '.join(bad))
    print('carma-messenger %s: %d fields as its test expects' % (kind, len(expected)))


# --- behaviours ------------------------------------------------------------------------

SDSM_FIELDS = {'j2735.SensorDataSharingMessage.msgCnt': '10',
               'j2735.SensorDataSharingMessage.sourceID': '010c0c0a',
               'j2735.Position3D.lat': '423010070', 'j2735.Position3D.long': '-836987660',
               'j2735.DetectedObjectCommonData.objType': '2',  # vru
               'j2735.DetectedObjectCommonData.objectID': '8010'}


def test_sdsm_xer(t, args):
    """2024: the jpo-ode SDSM decodes in full, every XER leaf equal, the VRU object named."""
    if args.edition < '2024':
        raise Skip('SDSM is not in the J2735 %s schema' % args.edition)
    cap = capture(args, 'sdsm-radiotap.pcap')
    test_xer(t, args, 'sdsm-radiotap.pcap', 'jpo-ode/decoder-output-sdsm.xml')
    names = list(SDSM_FIELDS) + ['_ws.malformed', '_ws.expert.message', '_ws.col.Info']
    got = dict(zip(names, t.fields(cap, names)[0]))
    bad = ['%s: want %s, got %s' % (n, v, got[n]) for n, v in SDSM_FIELDS.items()
           if got[n].replace(':', '').lower() != v]
    if bad or got['_ws.malformed'] or got['_ws.expert.message'] or \
            not got['_ws.col.Info'].endswith('SDSM'):
        raise Fail('\n  '.join(bad + ['info %r, expert %r, malformed %r' % (
            got['_ws.col.Info'], got['_ws.expert.message'], got['_ws.malformed'])]))
    print('SDSM: %s' % ', '.join('%s=%s' % (n.split('.', 1)[1], v)
                                 for n, v in SDSM_FIELDS.items()))


def test_sdsm_not_in_edition(t, args):
    """Before 2024 (or without a schema) message id 41 is named, with a note, never an
    error: "SDSM: not in this edition" in the expert info and the Info column."""
    if args.edition >= '2024':
        raise Skip('SDSM is in the J2735 %s schema' % args.edition)
    cap = capture(args, 'sdsm-radiotap.pcap')
    rows = t.fields(cap, ['j2735.msgid', '_ws.malformed', '_ws.expert.message',
                          '_ws.expert.severity', '_ws.col.Info'])
    msgid, malformed, expert, severity, info = rows[0]
    want = 'SDSM: not in this edition' if args.edition else 'without the SAE'
    if msgid != '41' or malformed or want not in expert or severity != '4194304':
        raise Fail('msgid %r malformed %r expert %r severity %r' % (msgid, malformed, expert,
                                                                    severity))
    if args.edition and not info.endswith('SDSM: not in this edition'):
        raise Fail('info %r' % info)
    print('SDSM: message id 41, %r (note), info %r' % (expert, info))


def message_frame(msg_id, value):
    """A MessageFrame (UPER): extension bit, messageId, open type of value (< 128 octets)."""
    return bytes([msg_id >> 8 & 0x7f, msg_id & 0xff, len(value)]) + value


def test_placeholders(t, args):
    """The messages an edition only reserves (2024: RGA, PSM2, TSPaT, SCPR, SCPS ::= NULL)
    are named and noted as placeholders, not errors; the NULL value is one zero octet."""
    if args.edition < '2024':
        raise Skip('no placeholder messages in the J2735 %s schema' % args.edition)
    want = {43: 'RGA', 44: 'PSM2', 45: 'TSPaT', 46: 'SCPR', 47: 'SCPS'}
    with tempfile.TemporaryDirectory() as tmp:
        for mid, name in want.items():
            cap = udp_capture(tmp, message_frame(mid, b'\x00'), 'ph%d' % mid)
            row = t.fields(cap, ['j2735.msgid', '_ws.malformed', '_ws.expert.message',
                                 '_ws.expert.severity', '_ws.col.Info'],
                           '-d', 'udp.port==47347,j2735')[0]
            if row[0] != str(mid) or row[1] or row[3] != '4194304' or \
                    not row[2].startswith('%s: placeholder in this edition' % name) or \
                    not row[4].endswith(name):
                raise Fail('message id %d: %s' % (mid, row))
    print('placeholders named with a note: %s' % ', '.join(want.values()))


def test_names_of_every_message(t, args, schema_dir):
    """The Info column and the j2735,tree statistics name every message id of the schema's
    MessageFrame module by the short name its comment gives (the DSRCmsgID value 41 is
    followed by the comment `-- SDSM`).
    Each message carries one zero octet: what matters is the name, decoded or not."""
    ids = {}
    for path in sorted(os.listdir(schema_dir)):
        text = open(os.path.join(schema_dir, path), 'rb').read().decode('latin-1')
        for mid, name in re.findall(r'DSRCmsgID\s*::=\s*(\d+)\s*--\s*([A-Za-z][\w]*)', text):
            if 18 <= int(mid) < 240:
                ids[int(mid)] = name
    if len(ids) < 15:
        raise Fail('%d message ids found in %s' % (len(ids), schema_dir))
    with tempfile.TemporaryDirectory() as tmp:
        txt = os.path.join(tmp, 'all.txt')
        with open(txt, 'w') as f:
            for mid in sorted(ids):
                f.write('000000 %s\n' % ' '.join('%02x' % b for b in message_frame(mid, b'\0')))
        cap = os.path.join(tmp, 'all.pcap')
        subprocess.run(['text2pcap', '-q', '-u', '47347,47347', txt, cap], check=True)
        os.chmod(cap, 0o644)
        os.chmod(tmp, 0o755)
        rows = t.fields(cap, ['j2735.msgid', '_ws.col.Info'], '-d', 'udp.port==47347,j2735')
        tree = t.run('-r', cap, '-q', '-z', 'j2735,tree', '-d', 'udp.port==47347,j2735').stdout
    bad = []
    for (mid, name), (got_id, info) in zip(sorted(ids.items()), rows):
        if got_id != str(mid) or not re.search(r'(^| )%s( |:|$)' % re.escape(name), info):
            bad.append('%d %s: info %r' % (mid, name, info))
        if not re.search(r'^\s*%s\s+1\s' % re.escape(name), tree, re.M):
            bad.append('%d %s: not in the statistics tree' % (mid, name))
    if bad or len(rows) != len(ids):
        raise Fail('%d messages, %d rows:\n  %s' % (len(ids), len(rows), '\n  '.join(bad)))
    print('%d message ids named in Info and statistics: %s'
          % (len(ids), ' '.join(ids[m] for m in sorted(ids))))


BSM_FIELDS = ['j2735.BSMcoreData.id', 'j2735.BSMcoreData.msgCnt', 'j2735.BSMcoreData.secMark',
              'j2735.BSMcoreData.lat', 'j2735.BSMcoreData.long', 'j2735.BSMcoreData.elev',
              'j2735.BSMcoreData.speed', 'j2735.BSMcoreData.heading']


def test_same_decode(t, args):
    """The same BSM signed, unsecured, raw in WSMP, and raw on UDP (Decode As)."""
    ways = [('bsm-radiotap-signed.pcap', []), ('bsm-ether-unsecured.pcap', []),
            ('bsm-radiotap-snap.pcap', []), ('bsm-wsmp-v2.pcap', []),
            ('j2735-udp.pcap', ['-d', 'udp.port==47347,j2735'])]
    results = {}
    for cap, extra in ways:
        rows = t.fields(capture(args, cap), BSM_FIELDS, *extra)
        results[cap] = rows[0]
    first = results[ways[0][0]]
    if not first[0] or first[1] != '88':
        raise Fail('signed BSM not decoded: %s' % first)
    bad = {c: r for c, r in results.items() if r != first}
    if bad:
        raise Fail('decodes differ from %s %s: %s' % (ways[0][0], first, bad))
    print('%d ways reach the same BSM decode: %s' % (len(ways), first))


def test_udp_heuristic(t, args):
    cap = capture(args, 'j2735-udp.pcap')
    heur = t.fields(cap, ['j2735.msgid'])
    if [r[0] for r in heur] != ['20', '']:
        raise Fail('heuristic: want BSM taken and the SPaT with a trailing octet refused, '
                   'got %s' % heur)
    decode_as = t.fields(cap, ['j2735.msgid'], '-d', 'udp.port==47347,j2735')
    if [r[0] for r in decode_as] != ['20', '19']:
        raise Fail('Decode As: %s' % decode_as)
    print('heuristic takes the exact MessageFrame only; Decode As takes both')


def test_col_info(t, args):
    """The highest layer leads: the Info column is the J2735 summary, in 1609.2 or not, in
    WSMP or on UDP (WSMP's own text stays where no J2735 follows: wsmp_test's gdot)."""
    bsm = 'BSM id=BEA10000 cnt=88 41.1642143,-104.8434120 0.0 m/s 191.1\u00b0'
    want = {
        'bsm-radiotap-snap.pcap': bsm,
        'bsm-radiotap-signed.pcap': bsm,
        'map-radiotap-signed.pcapng': 'MAP intersection 12110 rev 0 28 lanes',
        'spat-radiotap.pcap': 'SPaT intersection 12111 6 movements',
        'tim-80211-signed.pcap': 'TIM packet 0x0000000000000BBC2B 1 frame',
        'j2735-udp.pcap': bsm,
    }
    for cap, text in want.items():
        info = t.fields(capture(args, cap), ['_ws.col.Info'])[0][0]
        if info != text:
            raise Fail('%s: info %r, want %r' % (cap, info, text))
    print('COL_INFO is the J2735 summary')


def top_protos(pdml_text):
    """Per packet: the protos that are children of <packet>, and the j2735 protos nested
    deeper."""
    out = []
    for packet in ET.fromstring(pdml_text).findall('packet'):
        top = [p.get('name') for p in packet.findall('proto')]
        nested = [p.get('name') for c in packet for p in c.iter('proto')
                  if p is not c and p.get('name') == 'j2735']
        out.append((top, nested))
    return out


def test_top_level(t, args):
    """J2735 is a top-level tree beside WSMP (as DNS beside UDP) whether the message came
    in 1609.2 signed or unsecured data or raw in the WSM; 1609.2's tree keeps a pointer
    item; j2735 stays in frame.protocols and its filters work. Reached through the built-in
    wsmp, J2735 stays inside 1609.2. A 1609.2 envelope cut short still gives the message."""
    cap = capture(args, 'mixed.pcap')
    names = ['frame.protocols', 'j2735.msgid', 'j2735.at_top', 'ieee1609dot2.protocolVersion']
    rows = t.fields(cap, names)
    ours = top_protos(t.run('-r', cap, '-T', 'pdml').stdout)
    if len(rows) != 7 or len(ours) != 7:
        raise Fail('mixed.pcap: %d frames' % len(rows))
    for n, ((protocols, msgid, at_top, dot2), (top, nested)) in enumerate(zip(rows, ours), 1):
        in_dot2 = '3' in dot2.split(',')
        if 'j2735' not in top or nested or not msgid:
            raise Fail('frame %d: top-level protos %s, nested j2735 %s' % (n, top, nested))
        if (at_top != '') != in_dot2 or not protocols.endswith(
                ('ieee1609dot2:j2735' if in_dot2 else 'ieee1609dot3:j2735')):
            raise Fail('frame %d: frame.protocols %s, j2735.at_top %r' % (n, protocols, at_top))
    bsms = t.fields(cap, ['frame.number'], '-Y', 'j2735.msgid == 20')
    if [r[0] for r in bsms] != ['1', '2', '7']:
        raise Fail('j2735.msgid == 20 selects frames %s' % bsms)

    # The built-in wsmp hands every payload to 1609.2 (a raw one is a bad version 0) and
    # reads not all of mixed.pcap's headers; where it reaches a real 1609.2 (version 3,
    # the three BSMs at least) J2735 shows inside it.
    builtin = t.fields(cap, names, '-d', 'ethertype==0x88dc,wsmp')
    stock = top_protos(t.run('-r', cap, '-T', 'pdml', '-d', 'ethertype==0x88dc,wsmp').stdout)
    reached = []
    for n, (row, ours_row, (top, nested)) in enumerate(zip(builtin, rows, stock), 1):
        if '3' not in row[3].split(','):
            continue
        reached.append(n)
        if row[1] != ours_row[1] or 'j2735' in top or nested != ['j2735'] or row[2]:
            raise Fail('built-in wsmp, frame %d: msgid %s (ours %s), top %s, nested %s'
                       % (n, row[1], ours_row[1], top, nested))
    if not {1, 2, 7} <= set(reached):
        raise Fail('built-in wsmp reached 1609.2 in frames %s only' % reached)

    # The signed BSM with the last 10 octets of its signature cut off.
    frame = frame_octets(t, cap)
    with tempfile.TemporaryDirectory() as tmp:
        short = pcap_with_frame(tmp, cap, frame[:-10], 'short-signature')
        # the TemporaryID needs the schema; the message id does not
        row = t.fields(short, ['_ws.col.Info', 'j2735.msgid'] +
                       ['j2735.BSMcoreData.id'] * bool(args.edition), '-c', '1')[0]
        top, nested = top_protos(t.run('-r', short, '-T', 'pdml', '-c', '1').stdout)[0]
    info = row.pop(0)
    if row != ['20', 'bea10000'][:len(row)] or 'j2735' not in top or nested:
        raise Fail('short signature: %s, top %s, nested %s' % (row, top, nested))
    summary = 'BSM id=BEA10000 ' if args.edition else 'BSM'
    if '_ws.malformed' not in top or not (info.startswith(summary) and
                                          info.endswith('[Malformed Packet]')):
        raise Fail('short signature: no malformed item at the top (%s) or in Info %r'
                   % (top, info))
    print('J2735 at the top level in all 7 frames; nested under the built-in wsmp (frames '
          '%s); a short signature is malformed and the BSM still shown' % reached)


def test_units(t, args):
    out = t.run('-r', capture(args, 'bsm-radiotap-snap.pcap'), '-V').stdout
    for label in ('lat: 41.1642143\u00b0 (411642143)', 'long: -104.8434120\u00b0 (-1048434120)',
                  'elev: 1882.2 m (18822)', 'speed: 0.00 m/s, 0.0 km/h (0)',
                  'heading: 191.1250\u00b0 (15290)', 'secMark: 59299 ms (59.299 s)'):
        if label not in out:
            raise Fail('label %r not shown' % label)
    out = t.run('-r', capture(args, 'psm-sll.pcap'), '-V').stdout
    if 'unavailable' not in out and 'heading: 111.2250\u00b0 (8898)' not in out:
        raise Fail('PSM heading not in degrees')
    print('units shown in labels')


def test_field_names_unique(t, args):
    ftypes = t.ftypes()
    if 'j2735.BSMcoreData.lat' not in ftypes or 'j2735.AccelerationSet4Way.lat' not in ftypes:
        raise Fail('the BSM latitude and lateral acceleration have no names of their own')
    if 'j2735.lat' in ftypes:
        raise Fail('a bare j2735.lat field exists')
    out = t.glossary()
    names = [l.split('\t')[2] for l in out.splitlines()
             if l.startswith('F\t') and '\tj2735' in l]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        raise Fail('field names registered twice: %s' % dups[:10])
    print('%d j2735 fields, all names unique' % len(names))


def test_edition_shown(t, args):
    plugins = t.run('-G', 'plugins').stdout
    line = next((l for l in plugins.splitlines() if 'j2735.so' in l), '')
    flavour = ('j2735-' + args.edition) if args.edition else 'header-only'
    if flavour not in line:
        raise Fail('tshark -G plugins: %r lacks %r' % (line, flavour))
    protos = t.run('-G', 'protocols').stdout
    # the filter name is the third column (4.4 added columns after it)
    line = next((l for l in protos.splitlines() if l.split('\t')[2:3] == ['j2735']), '')
    want = ('%s schema' % args.edition) if args.edition else '-DJ2735_ASN1_DIR'
    if want not in line:
        raise Fail('protocol name %r lacks %r' % (line, want))
    print('edition shown: %s / %s' % (flavour, line.split('\t')[0]))


def test_msgid_header(t, args):
    """Needs no schema: message id, name and length of every J2735 capture."""
    want = {'bsm-radiotap-snap.pcap': ('20', '173'), 'spat-radiotap.pcap': ('19', '56'),
            'psm-sll.pcap': ('32', None), 'sdsm-radiotap.pcap': ('41', None)}
    for cap, (msgid, length) in want.items():
        row = t.fields(capture(args, cap), ['j2735.msgid', 'j2735.length'])[0]
        if row[0] != msgid or (length and row[1] != length):
            raise Fail('%s: msgid/length %s, want %s/%s' % (cap, row, msgid, length))
    print('message ids and lengths decoded')


def test_stats_tree(t, args):
    out = t.run('-r', capture(args, 'mixed.pcap'), '-q', '-z', 'j2735,tree').stdout
    counts = {}
    for line in out.splitlines():
        m = re.match(r'\s*(.+?)\s{2,}(\d+)\s', line)
        if m:
            counts[m.group(1).strip()] = int(m.group(2))
    want = {'Message type': 7, 'BSM': 3, 'SPAT': 1, 'MAP': 1, 'TIM': 1, 'PSM': 1,
            'PSID': 7, '0x20 Vehicle-to-vehicle safety and awareness': 3}
    if args.edition:
        want.update({'BSM TemporaryID': 3, 'BEA10000': 2, '31325433': 1,
                     'Intersection (MAP, SPaT)': 2, '12111 SPAT': 1, '12110 MAP': 1})
    bad = {k: (v, counts.get(k)) for k, v in want.items() if counts.get(k) != v}
    if bad:
        raise Fail('counts (want, got): %s\n%s' % (bad, out))
    print('j2735,tree counts as expected:\n' + out)


def test_reserved_value_expert(t, args):
    """The asn1_codec BSM with its secMark (DSecond) set to 62000, a reserved value."""
    frame = bytearray.fromhex(open(vector(args, 'asn1_codec/j2735.MessageFrame.Bsm.hex'))
                              .read().replace('\n', '').replace(' ', ''))
    # value after 00 14 and a 2-octet length; 3 preamble bits, msgCnt 7, id 32 bits
    first_bit = 4 * 8 + 3 + 7 + 32
    bits = int.from_bytes(frame, 'big')
    shift = len(frame) * 8 - first_bit - 16
    bits = (bits & ~(0xffff << shift)) | (62000 << shift)
    frame = bits.to_bytes(len(frame), 'big')
    with tempfile.TemporaryDirectory() as tmp:
        cap = udp_capture(tmp, frame, 'reserved')
        row = t.fields(cap, ['j2735.BSMcoreData.secMark', '_ws.expert.message'],
                       '-d', 'udp.port==47347,j2735', '-E', 'occurrence=a')[0]
    if row[0] != '62000' or 'reserved range 61000..65534' not in row[1]:
        raise Fail('secMark %r, expert infos %r' % (row[0], row[1]))
    print('secMark 62000 flagged: %s' % row[1])


# --- reserved bits of BIT STRINGs ------------------------------------------------------

RESERVED_BITS = 'j2735.reserved_bits'


def decode_tree(pdml_text, skip=None):
    """(name, show) of every j2735 value field of the first packet, in order, without the
    subtree of the field `skip` (name, occurrence) and without expert infos; and the
    reserved-bits warnings, the subtree skipped and whether the packet is malformed."""
    fields, skipped = [], None
    seen = {}
    malformed = False

    def walk(elem):
        nonlocal skipped, malformed
        for f in elem:  # fields, and the protocols carried in a field (1609.2 data)
            name = f.get('name', '')
            if f.tag == 'proto':
                malformed |= name == '_ws.malformed'
                walk(f)
                continue
            if name == RESERVED_BITS:
                continue
            malformed |= name == '_ws.malformed'
            if skip and name == skip[0]:
                seen[name] = seen.get(name, 0) + 1
                if seen[name] == skip[1] + 1:
                    skipped = f
                    continue
            if name.startswith('j2735.') and name not in ('j2735.length', 'j2735.value'):
                fields.append((name, f.get('show')))
            walk(f)

    packet = ET.fromstring(pdml_text).find('packet')
    walk(packet)
    warnings = [f.get('showname') for f in packet.iter('field')
                if f.get('name') == RESERVED_BITS]
    return fields, warnings, skipped, malformed


def first_field(pdml_text, name):
    packet = ET.fromstring(pdml_text).find('packet')
    f = next((f for f in packet.iter('field') if f.get('name') == name), None)
    if f is None:
        raise Fail('no %s decoded' % name)
    return f


def get_bits(data, at, n):
    return int.from_bytes(data, 'big') >> (len(data) * 8 - at - n) & ((1 << n) - 1)


def set_bits(data, at, n, value):
    """data with the n bits at bit offset at replaced by n bits of value."""
    return replace_bits(data, at, n, value, n)


def replace_bits(data, at, n, value, width):
    """data with the n bits at bit offset at replaced by value on width bits, padded with
    zero bits to whole octets."""
    total = len(data) * 8
    bits = int.from_bytes(data, 'big')
    head, tail = bits >> (total - at), bits & ((1 << (total - at - n)) - 1)
    nbits = total - n + width
    out = ((head << width | value) << (total - at - n)) | tail
    octets = (nbits + 7) // 8
    return (out << (octets * 8 - nbits)).to_bytes(octets, 'big')


def bit_candidates(data, octet, width, value):
    """Bit offsets in the octet where `width` bits of data equal value: where a PER field
    that tshark shows at that octet can start."""
    return [b for b in range(octet * 8, octet * 8 + 8)
            if b + width <= len(data) * 8 and get_bits(data, b, width) == value]


def pcap_with_frame(tmp, pcap, frame, name):
    """A copy of the classic pcap file `pcap` whose first packet has the octets frame
    (shorter ones as a packet of that length on the wire)."""
    data = bytearray(open(pcap, 'rb').read())
    order = 'little' if data[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else 'big'
    caplen = int.from_bytes(data[32:36], order)
    if len(frame) > caplen:
        raise Fail('frame length %d, want at most %d' % (len(frame), caplen))
    data[32:40] = len(frame).to_bytes(4, order) * 2  # captured and original length
    data[40:40 + caplen] = frame
    out = os.path.join(tmp, name + '.pcap')
    with open(out, 'wb') as f:
        f.write(data)
    os.chmod(out, 0o644)
    os.chmod(tmp, 0o755)
    return out


def frame_octets(t, cap):
    """The octets of the capture's first packet (tshark -x)."""
    packet = json.loads(t.run('-r', cap, '-T', 'json', '-x', '-c', '1').stdout)[0]
    return bytes.fromhex(packet['_source']['layers']['frame_raw'][0])


def test_reserved_bits_clear(t, args):
    """The real MAP (28 vehicle lanes) and SPaT (IntersectionStatusObject) set no
    reserved bit: no warning."""
    for cap, decoded in (('map-radiotap-signed.pcapng', 'j2735.GenericLane.laneID'),
                         ('spat-radiotap.pcap', 'j2735.IntersectionState.status')):
        pdml = t.run('-r', capture(args, cap), '-T', 'pdml').stdout
        fields, warnings, _, malformed = decode_tree(pdml)
        if malformed or decoded not in dict(fields) or warnings:
            raise Fail('%s: %s decoded %s, malformed %s, warnings %s'
                       % (cap, decoded, decoded in dict(fields), malformed, warnings))
    print('real MAP and SPaT: no reserved-bits warning')


def test_reserved_bits_spat_status(t, args):
    """The real SPaT with bit 13 (noValidSPATisAvailableAtThisTime, the last defined bit)
    of its IntersectionStatusObject set: no warning; with bit 14 (reserved) set: a warning
    naming it. The status's position comes from tshark's decode (its octet, its value);
    the bit in that octet is the one where setting a status bit changes the status only."""
    cap = capture(args, 'spat-radiotap.pcap')
    name = 'j2735.IntersectionState.status'
    pdml = t.run('-r', cap, '-T', 'pdml').stdout
    status = first_field(pdml, name)
    octet, value = int(status.get('pos')), int(status.get('value'), 16)
    want_fields, _, _, _ = decode_tree(pdml, (name, 0))
    frame = frame_octets(t, cap)
    with tempfile.TemporaryDirectory() as tmp:
        def decode(at, bit):
            mod = pcap_with_frame(tmp, cap, set_bits(frame, at + bit, 1, 1), 'spat')
            out = t.run('-r', mod, '-T', 'pdml').stdout
            fields, warnings, skipped, malformed = decode_tree(out, (name, 0))
            ok = (not malformed and fields == want_fields and skipped is not None and
                  int(skipped.get('value'), 16) == value | 1 << (15 - bit))
            return ok, warnings

        found = [at for at in bit_candidates(frame, octet, 16, value) if decode(at, 13)[0]]
        if len(found) != 1:
            raise Fail('IntersectionStatusObject at octet %d: %d bit offsets fit' %
                       (octet, len(found)))
        ok, warnings = decode(found[0], 13)
        if warnings:
            raise Fail('bit 13 (defined) warned: %s' % warnings)
        ok, warnings = decode(found[0], 14)
        if not ok or warnings != ['Reserved bits set: IntersectionStatusObject bit 14']:
            raise Fail('bit 14: decode unchanged %s, warnings %s' % (ok, warnings))
    print('SPaT status at frame bit %d: bit 13 silent, bit 14 %s' % (found[0], warnings))


def test_reserved_bits_map_lane(t, args):
    """The real MAP's MessageFrame (from its capture, on UDP) with its first lane made a
    crosswalk (LaneAttributes-Crosswalk, SIZE(16), bits 9..15 reserved): with bit 8
    (unsignalizedSegmentsPresent) set no warning, with bit 9 a warning naming it; every
    other field decodes as in the original. The lane type's position comes from tshark's
    decode (its octet; extension bit, choice index 0 and the vehicle bits): the bit in
    that octet is the one where the crosswalk decodes and the rest is unchanged."""
    cap = capture(args, 'map-radiotap-signed.pcapng')
    raw = t.run('-r', cap, '-T', 'pdml').stdout
    mf = first_field(raw, 'j2735.msgid')
    start = int(mf.get('pos'))
    frame = frame_octets(t, cap)
    length = int(first_field(raw, 'j2735.length').get('show'))
    if frame[start + 2] & 0xc0 != 0x80:
        raise Fail('MAP length is not a two-octet length determinant')
    message = frame[start:start + 4 + length]
    lane_type = 'j2735.LaneAttributes.laneType'
    dis = ('-d', 'udp.port==47347,j2735')
    with tempfile.TemporaryDirectory() as tmp:
        pdml = t.run('-r', udp_capture(tmp, message, 'map'), '-T', 'pdml', *dis).stdout
        want_fields, _, lane, _ = decode_tree(pdml, (lane_type, 0))
        vehicle = lane.find("field[@name='j2735.LaneTypeAttributes.vehicle']")
        if lane.get('show') != '0' or vehicle is None:
            raise Fail('the first lane is not a vehicle lane')
        octet = int(lane.get('pos')) - int(first_field(pdml, 'j2735.msgid').get('pos'))
        # laneType: extension bit 0, choice index 0 (3 bits), vehicle: extension bit 0, 8 bits
        candidates = bit_candidates(message, octet, 13, int(vehicle.get('value'), 16))

        def decode(at, crosswalk):
            # crosswalk: extension bit 0, choice index 1, 16 bits (7 bits more; the open
            # type's length grows by one octet)
            mod = replace_bits(message, at, 13, 1 << 16 | crosswalk, 20)
            mod = set_bits(mod, 16, 16, 0x8000 | (len(mod) - 4))
            out = t.run('-r', udp_capture(tmp, mod, 'map-mod'), '-T', 'pdml', *dis).stdout
            fields, warnings, skipped, malformed = decode_tree(out, (lane_type, 0))
            bits = skipped is not None and skipped.find(
                "field[@name='j2735.LaneTypeAttributes.crosswalk']")
            ok = (not malformed and fields == want_fields and bits is not None and
                  int(bits.get('value'), 16) == crosswalk)
            return ok, warnings

        found = [at for at in candidates if decode(at, 1 << 7)[0]]
        if len(found) != 1:
            raise Fail('laneType at octet %d: %d bit offsets fit' % (octet, len(found)))
        ok, warnings = decode(found[0], 1 << 7)
        if warnings:
            raise Fail('crosswalk bit 8 (defined) warned: %s' % warnings)
        ok, warnings = decode(found[0], 1 << 6)
        if not ok or warnings != ['Reserved bits set: LaneAttributes-Crosswalk bit 9']:
            raise Fail('crosswalk bit 9: decode unchanged %s, warnings %s' % (ok, warnings))
    print('MAP lane 1 made a crosswalk at bit %d: bit 8 silent, bit 9 %s'
          % (found[0], warnings))


def splice_position3d_regional(frame, region_id, value):
    """The PSM MessageFrame `frame` with one regional extension (region_id, the UPER octets
    `value`) added to its position (Position3D). The layout up to there is the same in the
    2016 and 2020 editions: PSM extension bit and 18 optional bits, basicType (extension
    bit + 3), secMark 16, msgCnt 7, id 32; Position3D extension, elevation and regional
    presence bits, lat 31, long 32, elevation 16 when present."""
    if frame[:2] != b'\x00\x20' or frame[2] >= 0x80:
        raise Fail('not a short PSM MessageFrame: %s' % frame[:3].hex())
    length = frame[2]
    nbits = length * 8
    bits = int.from_bytes(frame[3:3 + length], 'big')
    pos = 19 + 4 + 16 + 7 + 32  # Position3D's extension bit
    if bits >> (nbits - pos - 1) & 1 or bits >> (nbits - pos - 3) & 1:
        raise Fail('the PSM position already has extensions or regional extensions')
    bits |= 1 << (nbits - pos - 3)
    at = pos + 3 + 31 + 32 + (16 if bits >> (nbits - pos - 2) & 1 else 0)
    # SEQUENCE (SIZE(1..4)) OF: 2 bits count-1; regionId 8 bits; open type: length octet
    ext = (0 << 16 | region_id << 8 | len(value)) << (8 * len(value)) | \
        int.from_bytes(value, 'big')
    extbits = 2 + 8 + 8 + 8 * len(value)
    head, tail = bits >> (nbits - at), bits & ((1 << (nbits - at)) - 1)
    bits = ((head << extbits | ext) << (nbits - at)) | tail
    nbits += extbits
    newlen = (nbits + 7) // 8
    bits <<= newlen * 8 - nbits
    return b'\x00\x20' + bytes([newlen]) + bits.to_bytes(newlen, 'big')


def test_regional_extension(t, args):
    """Regional extensions are dispatched by region id through the table of the enclosing
    type's object set. No reference vector carries one (no <regional> in any XER), so the
    jpo-ode PSM (real bytes, XER decode) gets a Position3D-addGrpC (regionId addGrpC = 3)
    on its position: altitude 1882.20 m (the asn1_codec BSM's elevation, in AltitudeValue's
    0.01 m), confidence alt-000-10 (3). Every field of the original PSM must still equal
    the XER, the altitude must decode as encoded, and a region id outside Reg-Position3D
    must be reported as unknown."""
    xml = ET.parse(vector(args, 'jpo-ode/decoder-output-psm.xml')).getroot()
    frame = bytes.fromhex(re.sub(r'\s+', '', xml.findtext('.//asn1')))
    frame = frame[:3 + frame[2]]
    altitude, confidence = 188220, 3
    # Position3D-addGrpC: extension bit, Altitude { value 20 bits (-100000..800001),
    # confidence 4 bits (16 values) }, padded to octets
    value = ((altitude + 100000) << 4 | confidence) << 7
    value = value.to_bytes(4, 'big')
    names = ['j2735.RegionalExtension.regionId', 'j2735.Altitude.value',
             'j2735.Altitude.confidence', '_ws.expert.message', '_ws.malformed']
    with tempfile.TemporaryDirectory() as tmp:
        cap = udp_capture(tmp, splice_position3d_regional(frame, 3, value), 'regext')
        row = t.fields(cap, names, '-d', 'udp.port==47347,j2735')[0]
        got = dict(zip(names, row + [''] * len(names)))
        want = {'j2735.RegionalExtension.regionId': '3', 'j2735.Altitude.value': str(altitude),
                'j2735.Altitude.confidence': str(confidence), '_ws.expert.message': '',
                '_ws.malformed': ''}
        bad = ['%s: want %r, got %r' % (n, v, got[n]) for n, v in want.items() if got[n] != v]
        if bad:
            raise Fail('addGrpC on Position3D:\n  ' + '\n  '.join(bad))
        compare_xer(t, args, cap, xml.find('.//MessageFrame'),
                    tshark_args=('-d', 'udp.port==47347,j2735'))
        cap = udp_capture(tmp, splice_position3d_regional(frame, 1, value), 'regext-unknown')
        row = t.fields(cap, names, '-d', 'udp.port==47347,j2735')[0]
        got = dict(zip(names, row + [''] * len(names)))
        if got['j2735.Altitude.value'] or 'Reg-Position3D region id 1' not in \
                got['_ws.expert.message']:
            raise Fail('region id 1 (not in Reg-Position3D): %s' % got)
    print('Position3D-addGrpC altitude %d decoded via j2735.regext.Reg-Position3D; '
          'region id 1 reported unknown' % altitude)


def test_no_undefined_symbols(t, args):
    """The plugin resolves against the installed libwireshark (4.0 does not export every
    PER helper asn2wrs can emit)."""
    if not shutil.which('ldd'):
        raise Skip('ldd not installed')
    so = [os.path.join(d, f) for d, _, fs in os.walk(args.plugins) for f in fs
          if f == 'j2735.so']
    if not so:
        raise Fail('no j2735.so under %s' % args.plugins)
    p = subprocess.run(['ldd', '-r', so[0]], capture_output=True, text=True)
    missing = [l for l in (p.stdout + p.stderr).splitlines() if 'undefined symbol' in l]
    if p.returncode != 0 or missing:
        raise Fail('\n'.join(missing) or p.stderr)
    print('%s: every symbol resolves' % so[0])


def main():
    ap = tshark_driver.arg_parser()
    ap.add_argument('--edition', default='')
    ap.add_argument('test')
    ap.add_argument('rest', nargs='*')
    args = ap.parse_args()
    t = Tshark(args)
    needs_schema = args.test not in ('msgid_header', 'stats_tree', 'edition_shown',
                                     'sdsm_not_in_edition', 'udp_heuristic',
                                     'no_undefined_symbols', 'top_level')
    try:
        if needs_schema and not args.edition:
            raise Skip('no SAE J2735 schema: configure with -DJ2735_ASN1_DIR=<dir>')
        if not os.path.exists(os.path.join(args.vectors, 'PROVENANCE.md')):
            raise Skip('vectors not found at %s' % args.vectors)
        if args.test == 'xer':
            test_xer(t, args, *args.rest)
        elif args.test == 'names_of_every_message':
            test_names_of_every_message(t, args, *args.rest)
        elif args.test == 'carma':
            kind, pairs = args.rest[0], args.rest[1:]
            test_carma(t, args, kind, dict(p.split('=', 1) for p in pairs))
        else:
            globals()['test_' + args.test](t, args)
    except Skip as e:
        print('SKIP: %s' % e)
        return SKIP
    except Fail as e:
        print('FAIL: %s' % e)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
