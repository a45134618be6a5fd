/*
 * Listening sockets, made alike for RESP (server.c) and HTTP (http.c):
 * every address a bind value names, all at one port.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "net/ludusd.h"

#define LISTEN_BACKLOG	511

static void
format_bound(const struct addrinfo *ai, int port, char *buf, size_t len)
{
	char	 host[INET6_ADDRSTRLEN];

	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof host, NULL,
	    0, NI_NUMERICHOST) != 0)
		snprintf(host, sizeof host, "?");
	snprintf(buf, len, ai->ai_family == AF_INET6 ? "[%s]:%d" : "%s:%d",
	    host, port);
}

/* The port the kernel gave when port 0 was asked for. */
static int
bound_port(int fd)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return -1;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

int
listen_socket(const struct addrinfo *ai, int *port, char *where,
    size_t wherelen, char *err, size_t errlen)
{
	struct sockaddr_storage	 ss;
	int			 fd, one = 1;

	/* Every socket gets the port the first one was given. */
	memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
	if (ss.ss_family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = htons(*port);
	else if (ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(*port);
	format_bound(ai, *port, where, wherelen);
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, ai->ai_protocol);
	if (fd == -1)
		goto fail;
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	/* "::" must not take the IPv4 port that "0.0.0.0" may want. */
	if (ai->ai_family == AF_INET6)
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
		    sizeof one);
	if (bind(fd, (struct sockaddr *)&ss, ai->ai_addrlen) == -1 ||
	    listen(fd, LISTEN_BACKLOG) == -1)
		goto fail;
	if (*port == 0 && (*port = bound_port(fd)) == -1)
		goto fail;
	format_bound(ai, *port, where, wherelen);
	return fd;
fail:
	snprintf(err, errlen, "cannot listen on %s: %s", where,
	    strerror(errno));
	if (fd != -1)
		close(fd);
	return -1;
}

static int
is_loopback(const struct sockaddr *sa)
{
	const struct in6_addr	*a6;

	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family != AF_INET6)
		return 0;
	a6 = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	return IN6_IS_ADDR_LOOPBACK(a6) || (IN6_IS_ADDR_V4MAPPED(a6) &&
	    a6->s6_addr[12] == 127);
}

int
listen_beyond_loopback(char *const *binds, int nbind, int port, char *where,
    size_t wherelen, char *err, size_t errlen)
{
	struct addrinfo	*res, *ai;
	int		 i, found = 0;

	for (i = 0; i < nbind && !found; i++) {
		if (listen_resolve(binds[i], port, &res, err, errlen) == -1)
			return -1;
		for (ai = res; ai != NULL && !found; ai = ai->ai_next)
			if (!is_loopback(ai->ai_addr)) {
				format_bound(ai, port, where, wherelen);
				found = 1;
			}
		freeaddrinfo(res);
	}
	return found;
}

int
listen_resolve(const char *host, int port, struct addrinfo **res, char *err,
    size_t errlen)
{
	struct addrinfo	 hints;
	char		 serv[16];
	int		 rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(serv, sizeof serv, "%d", port);
	if ((rc = getaddrinfo(host, serv, &hints, res)) != 0) {
		snprintf(err, errlen, "bind %s: %s", host, gai_strerror(rc));
		return -1;
	}
	return 0;
}
