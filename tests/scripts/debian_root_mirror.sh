#!/bin/sh
# scripts/debian-root --print-mirror over a temporary apt folder (V2X_APT_ETC): the first
# deb URI of the deb822 .sources, then of the one-line lists, never a security archive, a
# deb-src or a disabled entry; V2X_DEBIAN_MIRROR over all of them; none found: an error
# that names V2X_DEBIAN_MIRROR.
# usage: debian_root_mirror.sh DEBIAN_ROOT CASE
set -eu
debian_root=$1
apt=$(mktemp -d "${TMPDIR:-/tmp}/v2x-apt.XXXXXX")
trap 'rm -rf "$apt"' EXIT
mkdir "$apt/sources.list.d"
unset V2X_DEBIAN_MIRROR

fail() {
	echo "FAIL: $*"
	exit 1
}

# expect URI: --print-mirror over $apt prints URI
expect() {
	got=$(V2X_APT_ETC=$apt "$debian_root" --print-mirror) || fail "--print-mirror exited $?"
	[ "$got" = "$1" ] || fail "mirror '$got', want '$1'"
	echo "ok: $1"
}

# A security stanza first (skipped for its suite, its URI says nothing), with a key
# whose continuation lines hold a ' .'; a deb-src-only stanza; then two URIs on a line.
deb822() {
	cat >"$apt/sources.list.d/debian.sources" <<'END'
# The security suite first.
Types: deb
URIs: http://updates.example.org/debian
Suites: bookworm-security
Components: main
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 AAAA
 -----END PGP PUBLIC KEY BLOCK-----

Types: deb-src
URIs: http://source.example.org/debian
Suites: bookworm
Components: main

Types: deb deb-src
# A comment inside a stanza.
URIs: http://mirror.example.org/debian http://backup.example.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
END
}

# Comments, deb-src, another archive (its own key), a security archive (for its URI: the old suite name says nothing)
# and a -security suite before the mirror, which has an option block.
one_line() {
	cat >"$apt/sources.list" <<'END'
# deb http://commented.example.net/debian bookworm main

deb-src http://other.example.net/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/vendor.gpg] https://vendor.example.net/apt stable main
deb http://security.example.net/debian bookworm/updates main
deb http://updates.example.net/debian bookworm-security main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://other.example.net/debian bookworm main # the mirror
END
}

debian_root_mirror_deb822_first_deb_uri_not_security() {
	deb822
	expect http://mirror.example.org/debian
}

debian_root_mirror_one_line_skips_comments_deb_src_security() {
	one_line
	expect http://other.example.net/debian
}

debian_root_mirror_deb822_before_one_line() {
	one_line
	deb822
	expect http://mirror.example.org/debian
}

debian_root_mirror_list_d_after_sources_list() {
	printf 'deb http://security.example.net/debian-security bookworm-security main\n' \
		>"$apt/sources.list"
	printf 'deb [ arch=amd64 ] http://list.example.net/debian bookworm main\n' \
		>"$apt/sources.list.d/local.list"
	expect http://list.example.net/debian
}

debian_root_mirror_disabled_stanza_skipped() {
	cat >"$apt/sources.list.d/a.sources" <<'END'
Types: deb
URIs: http://disabled.example.org/debian
Suites: bookworm
Components: main
Enabled: no

Types: deb
URIs: http://mirror.example.org/debian
Suites: bookworm
Components: main
END
	expect http://mirror.example.org/debian
}

# A third-party .sources file sorting before debian.sources: skipped for its own key
debian_root_mirror_other_archive_key_skipped() {
	deb822
	cat >"$apt/sources.list.d/caddy.sources" <<'END'
Types: deb
URIs: https://vendor.example.org/caddy/deb
Suites: any-version
Components: main
Signed-By: /usr/share/keyrings/caddy-stable-archive-keyring.gpg
END
	expect http://mirror.example.org/debian
}

debian_root_mirror_env_overrides_sources() {
	deb822
	one_line
	export V2X_DEBIAN_MIRROR=http://override.example.org/debian
	expect http://override.example.org/debian
}

# Nothing apt or debootstrap would use (a deb-src, a comment, a file apt ignores for its
# name, a cdrom), then no sources at all, then no apt folder.
debian_root_mirror_none_found_names_the_variable() {
	printf '%s\n' 'deb-src http://mirror.example.org/debian bookworm main' \
		'# deb http://mirror.example.org/debian bookworm main' >"$apt/sources.list"
	printf 'Types: deb\nURIs: http://mirror.example.org/debian\nSuites: bookworm\n' \
		>"$apt/sources.list.d/off.sources.disabled"
	printf 'deb cdrom:[Debian 12]/ bookworm main\n' >"$apt/sources.list.d/cd.list"
	mkdir "$apt/empty"
	for etc in "$apt" "$apt/empty" "$apt/missing"; do
		if V2X_APT_ETC=$etc "$debian_root" --print-mirror >"$apt/out" 2>"$apt/err"; then
			fail "$etc: a mirror found: $(cat "$apt/out")"
		fi
		[ ! -s "$apt/out" ] || fail "$etc: printed $(cat "$apt/out")"
		grep -q V2X_DEBIAN_MIRROR "$apt/err" ||
			fail "$etc: the error names no V2X_DEBIAN_MIRROR: $(cat "$apt/err")"
		echo "ok: $etc: $(cat "$apt/err")"
	done
}

"$2"
