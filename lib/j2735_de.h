/* SAE J2735 data elements' special values (the DE_* definitions): what "unavailable",
 * "this far or farther" and the like are, once, for every reader of J2735 values. */
#ifndef V2X_J2735_DE_H
#define V2X_J2735_DE_H

enum {
	V2X_DE_DSECOND_UNAVAILABLE = 65535,     /* DSecond (BSM secMark) */
	V2X_DE_DSECOND_LEAP_SECOND = 60000,     /* 60000..60999: a minute's 61st second */
	V2X_DE_DSECOND_RESERVED = 61000,        /* 61000..65534 */
	V2X_DE_LATITUDE_UNAVAILABLE = 900000001,
	V2X_DE_LONGITUDE_UNAVAILABLE = 1800000001,
	V2X_DE_ELEVATION_UNAVAILABLE = -4096,
	V2X_DE_ACCURACY_UNAVAILABLE = 255,      /* SemiMajor/SemiMinorAxisAccuracy */
	V2X_DE_ORIENTATION_UNAVAILABLE = 65535, /* SemiMajorAxisOrientation */
	V2X_DE_TRANSMISSION_UNAVAILABLE = 7,    /* TransmissionState */
	V2X_DE_SPEED_UNAVAILABLE = 8191,
	V2X_DE_HEADING_UNAVAILABLE = 28800,
	V2X_DE_ANGLE_UNAVAILABLE = 127,         /* SteeringWheelAngle */
	V2X_DE_ACCELERATION_UNAVAILABLE = 2001, /* Acceleration (longitudinal, lateral) */
	V2X_DE_VERT_ACCEL_UNAVAILABLE = -127,   /* VerticalAcceleration */
	V2X_DE_OFFSET_B18_UNAVAILABLE = -131072, /* OffsetLL-B18 (path history points) */
	V2X_DE_OFFSET_B18_MAX = 131071,         /* +-131071: "this far or farther" */
	V2X_DE_TIME_OFFSET_MAX = 65534,         /* TimeOffset: "65534 or more" */
	V2X_DE_TIME_OFFSET_UNAVAILABLE = 65535,
	V2X_DE_TIMEMARK_LEAP_SECOND = 36000,    /* TimeMark: tenths of a second in the hour */
	V2X_DE_TIMEMARK_UNKNOWN = 36001,
	V2X_DE_MINUTES_DURATION_INDEFINITE = 32000, /* MinutesDuration */
	V2X_DE_MINUTE_OF_YEAR_INVALID = 527040, /* MinuteOfTheYear */
	V2X_DE_PATH_HISTORY_MAX_POINTS = 23,    /* PathHistoryPointList SIZE(1..23) */
};

#endif
