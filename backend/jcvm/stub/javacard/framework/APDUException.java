package javacard.framework;

/** APDUException reports a misuse of the APDU object (a host stub). */
public class APDUException extends RuntimeException {
    public static final short ILLEGAL_USE = 1;
    public static final short BUFFER_BOUNDS = 2;
    public static final short BAD_LENGTH = 3;

    private final short reason;

    public APDUException(short reason) {
        super("APDUException " + reason);
        this.reason = reason;
    }

    public short getReason() {
        return reason;
    }

    public static void throwIt(short reason) {
        throw new APDUException(reason);
    }
}
