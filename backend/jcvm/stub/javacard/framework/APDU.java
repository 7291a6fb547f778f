package javacard.framework;

/** APDU is a host stub of the command/response buffer: a test sets the command, reads the response. */
public final class APDU {
    private final byte[] buffer = new byte[261];
    private byte[] response = new byte[0];
    private short le = 256;

    /** APDU makes a command APDU from its header and data (a stub-only constructor). */
    public APDU(byte[] command) {
        System.arraycopy(command, 0, buffer, 0, command.length);
    }

    public byte[] getBuffer() {
        return buffer;
    }

    public short setIncomingAndReceive() {
        return (short) (buffer[ISO7816.OFFSET_LC] & 0xff);
    }

    public short setOutgoing() {
        return le;
    }

    public void setOutgoingLength(short len) {
        le = len;
    }

    public void sendBytesLong(byte[] outData, short bOff, short len) {
        response = new byte[len];
        System.arraycopy(outData, bOff, response, 0, len);
    }

    public void setOutgoingAndSend(short bOff, short len) {
        response = new byte[len];
        System.arraycopy(buffer, bOff, response, 0, len);
    }

    /** getResponse returns the response data (stub only). */
    public byte[] getResponse() {
        return response;
    }
}
