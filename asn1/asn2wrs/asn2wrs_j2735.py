#!/usr/bin/python3
"""Runs Wireshark's asn2wrs (path in $ASN2WRS, default /usr/share/pyshared/asn2wrs.py) so that
every field gets its own hf and readable filter name, Type.field (j2735.BSMcoreData.lat is not
j2735.AccelerationSet4Way.lat): asn2wrs alone names fields by their last component only.
Arguments are asn2wrs's own. When asn2wrs rejects the schema, prints one line
`FILE:LINE: asn2wrs: MESSAGE`, FILE and LINE in the user's schema (origins.tsv, written by
j2735_prep.py, says where each module of the merged j2735.asn comes from), and exits 1."""
import importlib.util
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import j2735_schema as schema  # noqa: E402

path = os.environ.get('ASN2WRS', '/usr/share/pyshared/asn2wrs.py')
spec = importlib.util.spec_from_file_location('asn2wrs', path)
asn2wrs = importlib.util.module_from_spec(spec)
sys.modules['asn2wrs'] = asn2wrs
spec.loader.exec_module(asn2wrs)

register_field = asn2wrs.EthCtx.eth_reg_field


def register_field_with_path(self, ident, type, *args, **kwargs):
    register_field(self, ident, type, *args, **kwargs)
    parts = ident.split('/')
    if len(parts) < 2 or self.conform.check_item('FIELD_ATTR', ident):
        return
    if parts[-1] == asn2wrs.ITEM_FIELD_NAME:
        parts[-1] = type.split('/')[-1]
    parts = [p for p in parts if p != asn2wrs.ITEM_FIELD_NAME]
    names = [asn2wrs.asn2c(p) for p in parts]
    self.field[ident]['attr']['ABBREV'] = '.'.join(names)
    # a unique C name too, so asn2wrs never merges the field with a namesake
    if not self.conform.check_item('FIELD_RENAME', ident):
        self.conform.add_item('FIELD_RENAME', ident, fn=__file__, lineno=0,
                              eth_name='_'.join(names))


def where(message):
    """The user's file and line for a `j2735.asn:LINE` in asn2wrs's message."""
    if not os.path.exists(schema.ORIGINS):
        return 'j2735.asn'
    return schema.locate(schema.ORIGINS, message) or 'j2735.asn'


asn2wrs.EthCtx.eth_reg_field = register_field_with_path
# Wireshark 4.4 renamed asn2wrs's entry point eth_main() to asn2wrs_main().
main = getattr(asn2wrs, 'asn2wrs_main', None) or asn2wrs.eth_main
try:
    main()
except Exception as e:  # asn2wrs reports a schema it cannot digest by raising anything
    message = ' '.join(str(e).split()) or type(e).__name__
    sys.exit('%s: asn2wrs: %s' % (where(message), re.sub(r'^\S*j2735\.asn:\d+: *', '', message)))
