/*
 * What ludusd reads of an HTTP request itself: see http_check.h.
 */
#include <sys/socket.h>

#include <arpa/inet.h>

#include <string.h>
#include <strings.h>

#include "http/http_check.h"

int
http_host_name(const char *host, char *name, size_t len)
{
	const char	*end, *port;
	size_t		 n, i;

	if (host[0] == '[') {
		if ((end = strchr(host, ']')) == NULL)
			return -1;
		host++;
		port = end + 1;
	} else {
		end = strchr(host, ':');
		if (end == NULL)
			end = host + strlen(host);
		port = end;
	}
	if (*port != '\0' && (*port != ':' || port[1] == '\0' ||
	    strspn(port + 1, "0123456789") != strlen(port + 1)))
		return -1;
	n = (size_t)(end - host);
	if (n > 0 && host[n - 1] == '.')	/* "localhost." */
		n--;
	if (n == 0 || n >= len)
		return -1;
	for (i = 0; i < n; i++)
		name[i] = (char)(host[i] >= 'A' && host[i] <= 'Z' ?
		    host[i] + 'a' - 'A' : host[i]);
	name[n] = '\0';
	return 0;
}

static int
is_address(const char *name)
{
	unsigned char	 buf[16];

	return inet_pton(AF_INET, name, buf) == 1 ||
	    inet_pton(AF_INET6, name, buf) == 1;
}

int
http_host_allowed(const char *host, char *const *names, int n,
    int any_address)
{
	char	 name[256];
	int	 i;

	if (http_host_name(host, name, sizeof name) == -1)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return any_address && is_address(name);
}

int
http_type_is_json(const char *type)
{
	size_t	 n = strlen("application/json");

	return strncasecmp(type, "application/json", n) == 0 &&
	    (type[n] == '\0' || type[n] == ';' || type[n] == ' ');
}

int
http_origin_ours(const char *origin, int tls, const char *host)
{
	const char	*scheme = tls ? "https://" : "http://";
	size_t		 n = strlen(scheme);

	return strncasecmp(origin, scheme, n) == 0 &&
	    strcasecmp(origin + n, host) == 0;
}

int
http_origin_listed(const char *origin, char *const *list, int n)
{
	int	 i;

	for (i = 0; i < n; i++)
		if (strcasecmp(origin, list[i]) == 0)
			return 1;
	return 0;
}

int
http_bearer(const char *auth, const char **token, size_t *len)
{
	const char	*t;
	size_t		 n;

	if (strncasecmp(auth, "Bearer", 6) != 0 || auth[6] != ' ')
		return -1;
	t = auth + 6 + strspn(auth + 6, " ");
	for (n = 0; t[n] > 0x20 && t[n] < 0x7f; n++)
		;
	if (n == 0 || t[n + strspn(t + n, " ")] != '\0')
		return -1;
	*token = t;
	*len = n;
	return 0;
}
