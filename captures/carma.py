"""carma-messenger vectors (tests/vectors/carma-messenger/*.hex: the byte arrays of its unit
tests): the values each test asserts, its EXPECT_EQ lines transcribed."""

# vector -> (messageId the test decodes it as, key fields its decode test asserts in raw
# J2735 units)
EXPECT = {
    "carma-messenger/BSM.hex": (20, {"type": "BasicSafetyMessage", "msgCnt": 1, "id": "01020304",
                                "secMark": 1, "lat": 0, "long": 1, "elev": 0, "speed": 0,
                                "heading": 0}),
    "carma-messenger/PSM.hex": (32, {"type": "PersonalSafetyMessage", "basicType": 1,
                                "secMark": 60998, "lat": 406680509, "long": -738318466,
                                "elevation": 40}),
    "carma-messenger/MapMessage.hex": (18, {"type": "MapData", "msgIssueRevision": 3,
                                       "layerID": 1, "intersections": 1,
                                       "intersection_id": 9709, "revision": 3, "lanes": 12,
                                       "laneWidth": 274, "refPoint_elevation": 390}),
}
