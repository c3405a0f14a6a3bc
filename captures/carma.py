"""carma-messenger vectors: the UPER bytes are a C++ `binary_input = {...}` array in the
test source; the expected values are the test's EXPECT_EQ lines, transcribed below."""
import re

# test file -> (messageId the test decodes it as, key fields its decode test asserts in
# raw J2735 units)
EXPECT = {
    "test_BSM.cpp": (20, {"type": "BasicSafetyMessage", "msgCnt": 1, "id": "01020304",
                     "secMark": 1, "lat": 0, "long": 1, "elev": 0, "speed": 0,
                     "heading": 0}),
    "test_PSM.cpp": (32, {"type": "PersonalSafetyMessage", "basicType": 1, "secMark": 60998,
                     "lat": 406680509, "long": -738318466, "elevation": 40}),
    "test_MapMessage.cpp": (18, {"type": "MapData", "msgIssueRevision": 3, "layerID": 1,
                            "intersections": 1, "intersection_id": 9709, "revision": 3,
                            "lanes": 12, "laneWidth": 274, "refPoint_elevation": 390}),
}


def carma_bytes(path):
    """The first `binary_input = { d, d, ... }` array of a carma-messenger test."""
    with open(path, encoding="utf-8") as f:
        m = re.search(r"binary_input\s*=\s*\{([^}]*)\}", f.read())
    if not m:
        raise SystemExit(f"{path}: no binary_input array")
    return bytes(int(x) for x in m.group(1).split(","))
