package javacard.framework;

/**
 * APDU is a host stub of the command/response buffer for short APDUs. A test
 * builds it from a whole command (header, optional Lc and data, optional Le)
 * and reads the response data afterwards. It is stricter than a T=1 card: it
 * rejects what a T=0 card cannot do, such as receiving data of a command
 * that has none (on T=0 the byte after the header of a case-2 command is Le,
 * and receiving would take it for Lc).
 */
public final class APDU {
    private final byte[] buffer = new byte[261];
    private final short lc;
    private final short le;
    private boolean received;
    private boolean outgoing;
    private short outLen = -1;
    private short sent;
    private byte[] response = new byte[0];

    /** APDU parses a short command APDU (a stub-only constructor). */
    public APDU(byte[] command) {
        if (command.length < 4) {
            throw new IllegalArgumentException("APDU shorter than its header");
        }
        short lc = 0;
        short le = -1;
        int n = command.length - 4;
        if (n == 1) {
            le = (short) (command[4] == 0 ? 256 : command[4] & 0xff);
        } else if (n > 1) {
            lc = (short) (command[4] & 0xff);
            if (lc == 0 || n < 1 + lc || n > 2 + lc) {
                throw new IllegalArgumentException("APDU with a bad Lc");
            }
            if (n == 2 + lc) {
                le = (short) (command[5 + lc] == 0 ? 256 : command[5 + lc] & 0xff);
            }
        }
        this.lc = lc;
        this.le = le;
        System.arraycopy(command, 0, buffer, 0, Math.min(command.length, 5 + lc));
    }

    public byte[] getBuffer() {
        return buffer;
    }

    public short setIncomingAndReceive() {
        if (received || outgoing || lc == 0) {
            APDUException.throwIt(APDUException.ILLEGAL_USE);
        }
        received = true;
        return lc;
    }

    /** receiveBytes returns the data bytes left after the first receive: none, the stub receives all at once. */
    public short receiveBytes(short bOff) {
        if (!received || outgoing) {
            APDUException.throwIt(APDUException.ILLEGAL_USE);
        }
        return 0;
    }

    public short setOutgoing() {
        if (outgoing) {
            APDUException.throwIt(APDUException.ILLEGAL_USE);
        }
        outgoing = true;
        return le < 0 ? 256 : le;
    }

    public void setOutgoingLength(short len) {
        if (!outgoing || outLen >= 0) {
            APDUException.throwIt(APDUException.ILLEGAL_USE);
        }
        if (len < 0 || len > 256) {
            APDUException.throwIt(APDUException.BAD_LENGTH);
        }
        outLen = len;
    }

    public void sendBytesLong(byte[] outData, short bOff, short len) {
        if (outLen < 0) {
            APDUException.throwIt(APDUException.ILLEGAL_USE);
        }
        if (len < 0 || sent + len > outLen) {
            APDUException.throwIt(APDUException.BUFFER_BOUNDS);
        }
        byte[] r = new byte[sent + len];
        System.arraycopy(response, 0, r, 0, sent);
        System.arraycopy(outData, bOff, r, sent, len);
        response = r;
        sent += len;
    }

    public void setOutgoingAndSend(short bOff, short len) {
        setOutgoing();
        setOutgoingLength(len);
        sendBytesLong(buffer, bOff, len);
    }

    /** getResponse returns the response data (stub only). */
    public byte[] getResponse() {
        if (outLen >= 0 && sent != outLen) {
            APDUException.throwIt(APDUException.ILLEGAL_USE);
        }
        return response;
    }
}
