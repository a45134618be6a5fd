#!/bin/sh
# certs.sh DIR: a throwaway PKI for the TLS tests, made with openssl(1)
# in DIR (created if missing), valid for two days:
#
#   ca.crt                 the test CA (ca.key signs)
#   server.crt server.key  ludusd's certificate: DNS localhost, IP 127.0.0.1
#   server2.crt server2.key  another one like it, for a reload
#   client.crt client.key  a client certificate of the test CA
#   other-ca.crt           a CA that signed none of them (a wrong CA)
#   rogue.crt rogue.key    a client certificate of the other CA
#
# Exit status 0, or 1 with openssl's messages on stderr.
set -eu
dir=${1:?usage: certs.sh DIR}
mkdir -p "$dir"
cd "$dir"

# ca NAME CN: a self-signed CA.
ca() {
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 \
	    -subj "/CN=$2" -keyout "$1.key" -out "$1.crt" \
	    -addext basicConstraints=critical,CA:TRUE \
	    -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
}

# leaf NAME CA CN EXT: a key and a certificate signed by CA.
leaf() {
	openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=$3" \
	    -keyout "$1.key" -out "$1.csr" 2>/dev/null
	printf '%s\n' "$4" >"$1.ext"
	openssl x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" \
	    -CAcreateserial -days 2 -sha256 -extfile "$1.ext" \
	    -out "$1.crt" 2>/dev/null
	rm -f "$1.csr" "$1.ext"
}

SERVER_EXT="subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth"
CLIENT_EXT="extendedKeyUsage=clientAuth"
ca ca "ludus test CA"
ca other-ca "another test CA"
leaf server ca localhost "$SERVER_EXT"
leaf server2 ca localhost "$SERVER_EXT"
leaf client ca "test player" "$CLIENT_EXT"
leaf rogue other-ca "rogue player" "$CLIENT_EXT"
