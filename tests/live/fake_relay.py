# fake_relay.py: a fake lttng-relayd for the live session tests: it serves a
# CTF trace written by ttv-gen (its packet layout) over the live viewer
# protocol, paced like a running session (packets over time, inactivity
# beacons, metadata that grows, a stream announced late), and breaks the
# protocol on demand (truncated replies, wrong versions, huge sizes, a relay
# that stalls or goes away).  Used by test-live-fake.py and the GUI test.
import os
import socket
import struct
import threading
import time

CMD_CONNECT, CMD_LIST, CMD_ATTACH, CMD_INDEX, CMD_PACKET, CMD_METADATA, CMD_NEW_STREAMS, \
    CMD_CREATE, CMD_DETACH = range(1, 10)
INDEX_OK, INDEX_RETRY, INDEX_HUP, INDEX_ERR, INDEX_INACTIVE = 1, 2, 3, 4, 5
FLAG_NEW_METADATA, FLAG_NEW_STREAM = 1, 2
PACKET_MAGIC = 0xC1FC1FC1
METADATA_MAGIC = 0x75D11D57


class Stop(Exception):
    """The scenario ends the connection here."""


def read_packets(path):
    """(offset, size bytes, content bits, ts_begin, ts_end) of each packet of
    a ttv-gen CTF stream file (little-endian: header magic, uuid, stream
    class id as u32 in CTF 1.8, as u64 aligned to 8 in CTF 2; context
    timestamp_begin, timestamp_end, content_size, packet_size)."""
    data = open(path, 'rb').read()
    metadata = open(os.path.join(os.path.dirname(path), 'metadata'), 'rb').read()
    context = 32 if b'\x1e{"type":"preamble"' in metadata else 24
    packets, off = [], 0
    while off < len(data):
        magic, = struct.unpack_from('<I', data, off)
        assert magic == PACKET_MAGIC, '%s: not a ttv-gen CTF stream' % path
        tb, te, content, size = struct.unpack_from('<QQQQ', data, off + context)
        packets.append((off, size // 8, content, tb, te))
        off += size // 8
    return data, packets


def packetize(text, content=4096):
    """CTF metadata packets (little-endian header of 37 bytes) holding @text."""
    out = b''
    for i in range(0, len(text), content):
        chunk = text[i:i + content]
        bits = (37 + len(chunk)) * 8
        out += struct.pack('<I16sIIIBBBBB', METADATA_MAGIC, b'\0' * 16, 0, bits, bits, 0, 0, 0, 1, 8) + chunk
    return out


def unpacketize(data):
    """The text of packetized metadata (little-endian, as ttv-gen writes it),
    or @data itself when it is text."""
    if len(data) < 4 or struct.unpack_from('<I', data, 0)[0] != METADATA_MAGIC:
        return data
    text, off = b'', 0
    while off < len(data):
        content, size = struct.unpack_from('<II', data, off + 24)
        text += data[off + 37:off + content // 8]
        off += size // 8
    return text


# An event record class no packet uses, as a CTF 2 fragment.
LATE_EVENT_CTF2 = (b'\x1e{"type": "event-record-class", "id": 9999, "data-stream-class-id": 0, '
                   b'"name": "ttv_live_late_event"}\n')

# An event class no packet uses: metadata that grows after the trace opened.
LATE_EVENT = b'''
event {
\tname = "ttv_live_late_event";
\tid = 9999;
\tstream_id = 0;
\tfields := struct {
\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 10; } late;
\t};
};
'''


class Scenario:
    """What the fake relay does.  fault names one way to break the protocol
    (see Connection.maybe_fault); after = packets served before it."""

    def __init__(self, trace=None, **kw):
        self.trace = trace
        self.major = kw.get('major', 2)
        self.minor = kw.get('minor', 13)
        self.hostname = kw.get('hostname', 'fakehost')
        self.session = kw.get('session', 'fake-session')
        self.extra_sessions = kw.get('extra_sessions', [])     # (hostname, name, format)
        self.trace_format = kw.get('trace_format', 0)
        self.fault = kw.get('fault')
        self.after = kw.get('after', 0)
        self.packetized = kw.get('packetized', False)
        self.late_stream = kw.get('late_stream', False)
        # Streams but the first are announced after this many packets (0:
        # the first waits for them, so that no event comes late).
        self.late_after = kw.get('late_after', 0)
        self.late_delay = kw.get('late_delay', 0)              # and after this many seconds
        self.interval = kw.get('interval', 0.01)               # seconds between packets of a stream
        self.tail = kw.get('tail', 0.1)                        # beacons after the last packet
        self.path = kw.get('path', 'kernel')
        # The session holds still after these many packets, until resumed
        # (FakeRelay.resume, or "go" on the standard input of serve()).
        self.pause_after = kw.get('pause_after', [])


class FakeRelay:
    def __init__(self, scenario):
        self.sc = scenario
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(('127.0.0.1', 0))
        self.server.listen(4)
        self.port = self.server.getsockname()[1]
        self.served = {}            # stream file name -> packets sent whole
        self.resumed = 0            # pauses lifted
        self.stop = threading.Event()
        self.threads = []
        self.thread = threading.Thread(target=self.accept_loop, daemon=True)
        self.thread.start()

    def accept_loop(self):
        self.server.settimeout(0.05)
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            t = threading.Thread(target=Connection(self, conn).run, daemon=True)
            t.start()
            self.threads.append(t)

    def resume(self):
        self.resumed += 1

    def close(self):
        self.stop.set()
        self.server.close()
        self.thread.join(5)
        for t in self.threads:
            t.join(5)


class Stream:
    def __init__(self, sid, name, data, packets):
        self.id, self.name, self.data, self.packets = sid, name, data, packets
        self.next = 0
        self.hup = False


class Connection:
    def __init__(self, relay, sock):
        self.relay, self.sock, self.sc = relay, sock, relay.sc
        self.sent_packets = 0
        self.metadata_sent = 0
        self.announced = False

    # --- bytes ---------------------------------------------------------------

    def recv(self, n):
        b = b''
        while len(b) < n:
            c = self.sock.recv(n - len(b))
            if not c:
                raise Stop()
            b += c
        return b

    def send(self, b):
        self.sock.sendall(b)

    def run(self):
        try:
            self.sock.settimeout(30)
            self.setup()
            while True:
                size, cmd, _ = struct.unpack('>QII', self.recv(16))
                payload = self.recv(size)
                self.handle(cmd, payload)
        except (Stop, OSError):
            pass
        finally:
            self.sock.close()

    def stall(self):
        """Answers nothing more, until the test ends."""
        while not self.relay.stop.is_set():
            time.sleep(0.05)
        raise Stop()

    # --- the session ----------------------------------------------------------

    def setup(self):
        sc = self.sc
        self.streams = []
        self.metadata = b''
        if sc.trace is None:
            return
        text = unpacketize(open(os.path.join(sc.trace, 'metadata'), 'rb').read())
        late = LATE_EVENT_CTF2 if text.startswith(b'\x1e') else LATE_EVENT
        trace_part = packetize(text) if sc.packetized else text
        late_part = packetize(late, 64) if sc.packetized else late
        self.metadata = trace_part + late_part
        # Where the metadata the relay has ends, as the session goes: a
        # third of the trace's (cut inside a declaration), all of it, half
        # of the late event's, all.
        self.points = [len(trace_part) // 3, len(trace_part), len(trace_part) + len(late_part) // 2,
                       len(self.metadata)]
        names = sorted(n for n in os.listdir(sc.trace) if n.startswith('channel'))
        for i, n in enumerate(names):
            data, packets = read_packets(os.path.join(sc.trace, n))
            self.streams.append(Stream(10 + i, n, data, packets))
        self.announced_streams = self.streams[:1] if sc.late_stream else list(self.streams)
        self.start = time.monotonic()

    def metadata_available(self):
        """Metadata grows: a third at first, the rest of the trace's before
        the first packet, the late event in two halves after packets 2 and 4."""
        if not self.metadata:
            return 0
        if self.sent_packets == 0 and time.monotonic() - self.start < 0.05:
            return self.points[0]
        return self.points[1 + (self.sent_packets >= 2) + (self.sent_packets >= 4)]

    def late_stream_pending(self):
        return self.sc.late_stream and len(self.announced_streams) < len(self.streams)

    def late_stream_due(self):
        return (self.late_stream_pending() and self.sent_packets >= self.sc.late_after
                and time.monotonic() - self.start >= self.sc.late_delay)

    def flags(self):
        f = 0
        if self.metadata_available() > self.metadata_sent:
            f |= FLAG_NEW_METADATA
        if self.late_stream_due():
            f |= FLAG_NEW_STREAM
        return f

    def stream_record(self, s, metadata=False, path=None, channel=None, trace_id=7, stream_id=1):
        path = (path or self.sc.path).encode()
        channel = (channel or ('metadata' if metadata else s.name)).encode()
        return struct.pack('>QQI', stream_id if metadata else s.id, trace_id, 1 if metadata else 0) + \
            path.ljust(4096, b'\0') + channel.ljust(255, b'\0')

    def handle(self, cmd, payload):
        sc = self.sc
        if cmd == CMD_CONNECT:
            if sc.fault == 'close-on-connect':
                raise Stop()
            major, minor = sc.major, sc.minor
            self.send(struct.pack('>QIII', 1, major, minor, 0))
        elif cmd == CMD_LIST:
            self.list_sessions()
        elif cmd == CMD_CREATE:
            self.send(struct.pack('>I', 1))
        elif cmd == CMD_ATTACH:
            sid, _, seek = struct.unpack('>QQI', payload)
            assert seek == 1, 'ttv attaches from the beginning'
            self.attach()
        elif cmd == CMD_NEW_STREAMS:
            self.new_streams()
        elif cmd == CMD_METADATA:
            self.get_metadata()
        elif cmd == CMD_INDEX:
            self.next_index(struct.unpack('>Q', payload)[0])
        elif cmd == CMD_PACKET:
            self.get_packet(*struct.unpack('>QQI', payload))
        elif cmd == CMD_DETACH:
            self.send(struct.pack('>I', 1))
        else:
            raise Stop()

    def sessions(self):
        sc = self.sc
        out = [(1, sc.hostname, sc.session, sc.trace_format, len(self.streams) + 1)]
        for i, (h, n, f) in enumerate(sc.extra_sessions):
            out.append((2 + i, h, n, f, 3))
        return out

    def list_sessions(self):
        sc = self.sc
        sessions = self.sessions()
        if sc.fault == 'huge-list':
            self.send(struct.pack('>I', 0xFFFFFFFF))
            return
        body = b''
        for sid, host, name, fmt, n in sessions:
            if sc.minor >= 15:
                h, s = host.encode(), name.encode()
                body += struct.pack('>QIIIIII', sid, 200000, 0, n, len(h), len(s), fmt) + h + s
            else:
                h = host.encode().ljust(64, b'\0')
                s = name.encode().ljust(255, b'X' if sc.fault == 'unterminated-name' else b'\0')
                body += struct.pack('>QIII', sid, 200000, 0, n) + h + s
        msg = struct.pack('>I', len(sessions)) + body
        if sc.fault == 'truncated-list':
            self.send(msg[:len(msg) - 100])
            raise Stop()
        self.send(msg)

    def attach(self):
        sc = self.sc
        if sc.fault == 'attach-refused':
            self.send(struct.pack('>II', 2, 0))
            return
        if sc.fault == 'huge-streams':
            self.send(struct.pack('>II', 1, 1 << 30))
            return
        records = [self.stream_record(None, metadata=True)] if self.metadata else []
        if sc.fault == 'two-traces-one-dir':
            records.append(self.stream_record(None, metadata=True, trace_id=8, stream_id=2))
        for s in self.announced_streams:
            if sc.fault == 'bad-path':
                records.append(self.stream_record(s, path='../../escape'))
            else:
                records.append(self.stream_record(s))
        self.send(struct.pack('>II', 1, len(records)) + b''.join(records))

    def new_streams(self):
        if self.late_stream_due():
            new = [s for s in self.streams if s not in self.announced_streams]
            self.announced_streams = list(self.streams)
            self.send(struct.pack('>II', 1, len(new)) + b''.join(self.stream_record(s) for s in new))
        elif all(s.hup for s in self.announced_streams) and not self.late_stream_pending():
            self.send(struct.pack('>II', 4, 0))          # HUP: the session ended
        else:
            self.send(struct.pack('>II', 2, 0))          # no new stream

    def get_metadata(self):
        sc = self.sc
        avail = self.metadata_available()
        if sc.fault == 'huge-metadata':
            self.send(struct.pack('>QI', 1 << 40, 1))
            return
        if avail <= self.metadata_sent:
            self.send(struct.pack('>QI', 0, 2))
            return
        chunk = self.metadata[self.metadata_sent:avail]
        self.metadata_sent = avail
        self.send(struct.pack('>QI', len(chunk), 1) + chunk)

    def stream(self, sid):
        for s in self.announced_streams:
            if s.id == sid:
                return s
        raise Stop()

    def maybe_fault(self):
        """The faults that strike after @after packets."""
        sc = self.sc
        if self.sent_packets < sc.after:
            return None
        if sc.fault == 'stall':
            self.stall()
        if sc.fault == 'close-after':
            raise Stop()
        return sc.fault

    def next_index(self, sid):
        sc = self.sc
        s = self.stream(sid)
        fault = self.maybe_fault()
        if fault == 'truncated-index':
            self.send(struct.pack('>QQQ', 0, 0, 0))
            raise Stop()
        if fault == 'index-error':
            self.send(struct.pack('>QQQQQQQII', 0, 0, 0, 0, 0, 0, 0, INDEX_ERR, 0))
            return
        if fault == 'unknown-status':
            self.send(struct.pack('>QQQQQQQII', 0, 0, 0, 0, 0, 0, 0, 77, 0))
            return
        flags = self.flags()
        now = time.monotonic() - self.start
        # Nothing before the late stream is announced (its events are early),
        # unless it is to come late.
        held = self.late_stream_pending() and sc.late_after == 0
        if held or (sc.trace and self.metadata_sent < self.points[1]):
            self.send(struct.pack('>QQQQQQQII', 0, 0, 0, 0, 0, 0, 0, INDEX_RETRY, flags))
            return
        paused = [p for p in sc.pause_after if self.sent_packets >= p][self.relay.resumed:]
        if s.next < len(s.packets) and now >= s.next * sc.interval and not paused:
            off, size, content, tb, te = s.packets[s.next]
            bits = size * 8
            if fault == 'huge-packet':
                bits = 1 << 40
            self.send(struct.pack('>QQQQQQQII', off, bits, content, tb, te, 0, 0, INDEX_OK, flags))
            return
        if s.next < len(s.packets):
            # Waiting for its next packet: nothing before that packet's start.
            tb = s.packets[s.next][3]
            self.send(struct.pack('>QQQQQQQII', 0, 0, 0, 0, tb, 0, 0, INDEX_INACTIVE, flags))
            return
        if now < len(s.packets) * sc.interval + sc.tail:
            te = s.packets[-1][4] + 1000
            self.send(struct.pack('>QQQQQQQII', 0, 0, 0, 0, te, 0, 0, INDEX_INACTIVE, flags))
            return
        s.hup = True
        self.send(struct.pack('>QQQQQQQII', 0, 0, 0, 0, 0, 0, 0, INDEX_HUP, flags))

    def get_packet(self, sid, offset, length):
        sc = self.sc
        s = self.stream(sid)
        off, size, content, tb, te = s.packets[s.next]
        assert offset == off and length == size, 'GET_PACKET for the packet of the last index'
        data = s.data[off:off + size]
        fault = self.maybe_fault()
        if fault == 'wrong-packet-len':
            self.send(struct.pack('>III', 1, size + 8, 0) + data + b'\0' * 8)
            return
        if fault == 'truncated-packet':
            self.send(struct.pack('>III', 1, size, 0) + data[:size // 2])
            raise Stop()
        self.send(struct.pack('>III', 1, size, 0) + data)
        s.next += 1
        self.sent_packets += 1
        self.relay.served[s.name] = s.next


def serve():
    """python3 fake_relay.py TRACE [KEY=PYTHON-VALUE...]: serves TRACE with
    that scenario, prints the port, and stops when standard input closes
    (the GUI test holds it open)."""
    import ast
    import sys
    kw = {}
    for arg in sys.argv[2:]:
        key, value = arg.split('=', 1)
        kw[key] = ast.literal_eval(value)
    relay = FakeRelay(Scenario(sys.argv[1] if sys.argv[1] != '-' else None, **kw))
    sys.stdout.write('%d\n' % relay.port)
    sys.stdout.flush()
    for line in sys.stdin:
        if line.strip() == 'go':
            relay.resume()
    relay.close()


if __name__ == '__main__':
    serve()
