#!/usr/bin/perl
# Raw HTTP for the tests of ludusd's HTTP side, where curl is too polite:
# malformed requests, slow senders, many connections.  Core Perl only
# (perl-base), loopback only, every wait bounded.
#
#	rawhttp.pl send PORT FILE	sends the request written in FILE (C
#					escapes \r \n \t \0 \xHH \\; the
#					file's own line ends are dropped) and
#					prints the reply's status line, or
#					CLOSED when none came
#	rawhttp.pl head PORT FILE	the same, printing the reply's status
#					line and headers (CLOSED: none)
#	rawhttp.pl slow PORT SECS	sends a header a byte every 0.3 s;
#					prints the seconds until the server
#					closed, or OPEN after SECS
#	rawhttp.pl idle PORT SECS	connects and sends nothing: the same
#	rawhttp.pl hold PORT N		opens N kept-alive connections with
#					a request each, then one more; prints
#					the N + 1 status codes
#	rawhttp.pl stall PORT PATH SECS	asks for PATH (an event stream) with
#					a receive buffer of 2 KiB, reads
#					nothing for SECS, then reads what
#					came: prints "EVENTS n LAST seq"
#					and CLOSED when the server closed
#	rawhttp.pl from PORT FILE	runs the lines of FILE, each
#					"ADDR N PATH": opens N connections
#					from the local address ADDR, each
#					asking for PATH, and prints their
#					status codes on a line (CLOSED: no
#					reply).  Connections answered 200
#					are kept open to the end (an event
#					stream stays one); "close ADDR"
#					closes those of ADDR; "show ADDR
#					PATH" prints the status code and the
#					JSON reply's message
use strict;
use warnings;
use IO::Socket::INET;
use IO::Select;
use Socket qw(PF_INET SOCK_STREAM SOL_SOCKET SO_RCVBUF inet_aton
    pack_sockaddr_in);

my ($mode, $port, $arg) = @ARGV;
die "usage: rawhttp.pl send|head|slow|idle|hold|from|stall PORT ARG\n"
    unless defined $arg;

sub connect_to {
	my ($from) = @_;
	my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
	    PeerPort => $port, Proto => 'tcp', Timeout => 5,
	    defined $from ? (LocalAddr => $from) : ())
	    or die "connect: $!\n";
	binmode $s;
	$s->autoflush(1);
	return $s;
}

# What arrives within secs of quiet, up to the close.
sub read_reply {
	my ($s, $secs) = @_;
	my $sel = IO::Select->new($s);
	my ($buf, $got) = ('', 0);
	while ($sel->can_read($secs)) {
		my $n = sysread($s, my $chunk, 65536);
		last unless $n;
		$buf .= $chunk;
		# One reply is enough: its headers and a Content-Length body.
		if ($buf =~ /\r\n\r\n/s) {
			my ($h, $b) = split /\r\n\r\n/, $buf, 2;
			my ($len) = $h =~ /^Content-Length:\s*(\d+)/mi;
			last if defined $len && length($b) >= $len;
		}
	}
	return $buf;
}

sub status_of {
	my ($reply) = @_;
	return 'CLOSED' if $reply eq '';
	my ($line) = split /\r\n/, $reply;
	return $line;
}

sub unescape {
	my ($t) = @_;
	$t =~ s/\n//g;
	$t =~ s/\\(r|n|t|0|x[0-9a-fA-F]{2}|\\)/
	    $1 eq 'r' ? "\r" : $1 eq 'n' ? "\n" : $1 eq 't' ? "\t" :
	    $1 eq '0' ? "\0" : $1 eq '\\' ? '\\' : chr(hex(substr($1, 1)))/ge;
	return $t;
}

# Seconds until the server closes s, trickling a byte every 0.3 s when
# drip is set; OPEN after secs.
sub until_closed {
	my ($s, $secs, $drip) = @_;
	my $sel = IO::Select->new($s);
	my $start = time;
	local $SIG{PIPE} = 'IGNORE';
	while (time - $start < $secs) {
		if ($sel->can_read(0.3)) {
			my $n = sysread($s, my $chunk, 4096);
			return time - $start unless $n;
		}
		if ($drip) {
			my $w = syswrite($s, 'a');
			return time - $start unless defined $w;
		}
	}
	return 'OPEN';
}

my $head = "Host: 127.0.0.1:$port\r\n";
if ($mode eq 'send' || $mode eq 'head') {
	open my $f, '<', $arg or die "$arg: $!\n";
	local $/;
	my $req = unescape(<$f>);
	close $f;
	$req =~ s/\@HOST\@/127.0.0.1:$port/g;
	my $s = connect_to();
	local $SIG{PIPE} = 'IGNORE';
	syswrite($s, $req);
	my $reply = read_reply($s, 3);
	if ($mode eq 'head' && $reply ne '') {
		my ($h) = split /\r\n\r\n/, $reply, 2;
		$h =~ s/\r//g;
		print "$h\n";
	} else {
		print status_of($reply), "\n";
	}
} elsif ($mode eq 'slow') {
	my $s = connect_to();
	syswrite($s, "GET / HTTP/1.1\r\n${head}X-Slow: ");
	print until_closed($s, $arg, 1), "\n";
} elsif ($mode eq 'idle') {
	my $s = connect_to();
	print until_closed($s, $arg, 0), "\n";
} elsif ($mode eq 'hold') {
	my @held;
	for my $i (0 .. $arg) {
		my $s = connect_to();
		syswrite($s, "GET /api/kinds HTTP/1.1\r\n$head\r\n");
		my ($code) = status_of(read_reply($s, 3)) =~ /^HTTP\/1\.1 (\d+)/;
		push @held, $s;
		print defined $code ? $code : 'CLOSED', $i < $arg ? ' ' : "\n";
	}
} elsif ($mode eq 'from') {
	open my $f, '<', $arg or die "$arg: $!\n";
	my %held;
	local $SIG{PIPE} = 'IGNORE';
	while (my $line = <$f>) {
		chomp $line;
		next if $line eq '';
		if ($line =~ /^close (\S+)$/) {
			close $_ for @{delete $held{$1} // []};
			print "closed $1\n";
			next;
		}
		my ($from, $n, $path) = split ' ', $line;
		my $show = $from eq 'show';
		($from, $n, $path) = ($n, 1, $path) if $show;
		my @codes;
		for (1 .. $n) {
			my $s = connect_to($from);
			syswrite($s, "GET $path HTTP/1.1\r\n$head\r\n");
			# The status line and headers: an event stream's body
			# does not end.
			my ($buf, $sel) = ('', IO::Select->new($s));
			while ($buf !~ /\r\n\r\n/ && $sel->can_read(5)) {
				my $got = sysread($s, my $chunk, 65536);
				last unless $got;
				$buf .= $chunk;
			}
			my ($code) = status_of($buf) =~ /^HTTP\/1\.1 (\d+)/;
			if ($show) {
				$buf .= read_reply($s, 3);
				my ($msg) = $buf =~ /"message":\s*"([^"]*)"/;
				$code = ($code // 'CLOSED') . ' ' . ($msg // '');
			}
			push @codes, defined $code ? $code : 'CLOSED';
			if (defined $code && $code eq '200') {
				push @{$held{$from}}, $s;
			} else {
				close $s;
			}
		}
		# Runs of one code are counted: "200x4 503".
		my @runs;
		for my $c (@codes) {
			if (@runs && $runs[-1][0] eq $c) {
				$runs[-1][1]++;
			} else {
				push @runs, [$c, 1];
			}
		}
		print join(' ', map { $_->[1] > 1 ? "$_->[0]x$_->[1]" : $_->[0] }
		    @runs), "\n";
	}
} elsif ($mode eq 'stall') {
	# The receive buffer is set before the connect, so that the window
	# the server sees stays small.
	socket(my $s, PF_INET, SOCK_STREAM, 0) or die "socket: $!\n";
	setsockopt($s, SOL_SOCKET, SO_RCVBUF, 2048) or die "SO_RCVBUF: $!\n";
	connect($s, pack_sockaddr_in($port, inet_aton('127.0.0.1')))
	    or die "connect: $!\n";
	binmode $s;
	syswrite($s, "GET $arg HTTP/1.1\r\n$head\r\n");
	sleep($ARGV[3] // 3);
	my ($buf, $closed, $sel) = ('', 0, IO::Select->new($s));
	while ($sel->can_read(2)) {
		my $n = sysread($s, my $chunk, 65536);
		if (!$n) {
			$closed = 1;
			last;
		}
		$buf .= $chunk;
	}
	my @ids = $buf =~ /^id: (\d+)$/mg;
	print "EVENTS ", scalar(@ids), " LAST ", (@ids ? $ids[-1] : 0),
	    $closed ? " CLOSED" : " OPEN", "\n";
} else {
	die "unknown mode $mode\n";
}
