package javacard.framework;

/** ISO7816 holds the APDU offsets and status words the applet uses (a host stub). */
public interface ISO7816 {
    byte OFFSET_CLA = 0;
    byte OFFSET_INS = 1;
    byte OFFSET_P1 = 2;
    byte OFFSET_P2 = 3;
    byte OFFSET_LC = 4;
    byte OFFSET_CDATA = 5;
    short SW_NO_ERROR = (short) 0x9000;
    short SW_WRONG_LENGTH = (short) 0x6700;
    short SW_INS_NOT_SUPPORTED = (short) 0x6D00;
}
