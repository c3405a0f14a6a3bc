/* For v2xcap-static only: Debian's static libdbus (pulled in by libpcap's D-Bus capture
 * source) refers to two libsystemd calls used for socket activation of a bus daemon, and
 * there is no static libsystemd. v2xcap never runs a bus daemon; these say "no sockets
 * were passed", which is what libsystemd answers outside systemd too. */
int sd_listen_fds(int unset_environment);
int sd_is_socket(int fd, int family, int type, int listening);

int sd_listen_fds(int unset_environment)
{
	(void)unset_environment;
	return 0;
}

int sd_is_socket(int fd, int family, int type, int listening)
{
	(void)fd;
	(void)family;
	(void)type;
	(void)listening;
	return 0;
}
