package javacard.framework;

/** ISOException carries an ISO 7816 status word (a host stub). */
public class ISOException extends RuntimeException {
    private final short sw;

    public ISOException(short sw) {
        super("SW " + Integer.toHexString(sw & 0xffff));
        this.sw = sw;
    }

    public short getReason() {
        return sw;
    }

    public static void throwIt(short sw) {
        throw new ISOException(sw);
    }
}
