package jcvm

import (
	"strings"

	"github.com/lowent/lowentc/ir"
)

// The applet: how a terminal calls the exports of the library class.
//
//	INS 0x01 LOAD  P1P2 = offset: copy the command data into the argument area
//	INS 0x02 READ  P1P2 = offset, Le = length: send bytes of the argument area
//	INS 0x10+k     call export k once
//	INS 0x20       P2 = k, P1 = N: call export k N times in a row (the timing
//	               INS: the per-call cost is the slope of time over N)
//
// The data of 0x10+k and 0x20 gives each parameter in order: an array as its
// offset in the argument area (2 bytes, big-endian) and, for a slice, its
// length (2 bytes); a short as 2 bytes, an int as 4. A result comes back as
// 2 (short) or 4 (int) bytes. Only commands that carry data receive it: on
// T=0 the byte after the header of READ (a case-2 command) is Le, not Lc.

// argAreaSize is the size of the applet's argument area in bytes.
const argAreaSize = 4096

// applet prints <Module>Applet, public when it has a file of its own (the
// --emit javacard tree), package-private beside the library class in the
// one file of --emit java.
func (p *javaPrinter) applet(public bool) {
	c := p.cls.Name
	vis := ""
	if public {
		vis = "public "
	}
	p.f("\n/** %sApplet gives each export of %s an INS (see docs/jcvm.md). */\n", c, c)
	p.f("%sfinal class %sApplet extends Applet {\n", vis, c)
	p.f("    private final byte[] args = area();\n\n")
	p.f("    private %sApplet() {\n        %s.init();\n        register();\n    }\n\n", c, c)
	p.f("    public static void install(byte[] bArray, short bOffset, byte bLength) {\n        new %sApplet();\n    }\n\n", c)
	// The argument area is RAM when the card has that much, as the cost
	// model assumes (an EEPROM write costs milliseconds), else EEPROM.
	p.f("    private static byte[] area() {\n")
	p.f("        try {\n            return JCSystem.makeTransientByteArray((short) %d, JCSystem.CLEAR_ON_DESELECT);\n", argAreaSize)
	p.f("        } catch (SystemException e) {\n            return new byte[%d];\n        }\n    }\n\n", argAreaSize)
	p.f("    public void process(APDU apdu) {\n")
	p.f("        if (selectingApplet()) {\n            return;\n        }\n")
	p.f("        byte[] buf = apdu.getBuffer();\n")
	p.f("        short p12 = Util.getShort(buf, ISO7816.OFFSET_P1);\n")
	p.f("        byte ins = buf[ISO7816.OFFSET_INS];\n")
	// LOAD and READ check the whole range before touching the area: a
	// range outside it answers SW_WRONG_LENGTH, not an uncaught
	// ArrayIndexOutOfBoundsException (6F00), and nothing is written.
	p.f("        if (ins == (byte) 0x01) {\n")
	p.f("            short n = apdu.setIncomingAndReceive();\n")
	p.f("            short lc = (short) (buf[ISO7816.OFFSET_LC] & 0xff);\n")
	p.f("            if (p12 < 0 || p12 > %d || lc > (short) (%d - p12)) {\n", argAreaSize, argAreaSize)
	p.f("                ISOException.throwIt(ISO7816.SW_WRONG_LENGTH);\n            }\n")
	p.f("            while (n > 0) {\n")
	p.f("                Util.arrayCopyNonAtomic(buf, ISO7816.OFFSET_CDATA, args, p12, n);\n")
	p.f("                p12 += n;\n")
	p.f("                n = apdu.receiveBytes(ISO7816.OFFSET_CDATA);\n")
	p.f("            }\n            return;\n        }\n")
	p.f("        if (ins == (byte) 0x02) {\n")
	p.f("            short le = apdu.setOutgoing();\n")
	p.f("            if (p12 < 0 || p12 > %d || le > (short) (%d - p12)) {\n", argAreaSize, argAreaSize)
	p.f("                ISOException.throwIt(ISO7816.SW_WRONG_LENGTH);\n            }\n")
	p.f("            apdu.setOutgoingLength(le);\n")
	p.f("            apdu.sendBytesLong(args, p12, le);\n            return;\n        }\n")
	p.f("        short times = 1;\n        byte k = (byte) (ins - 0x10);\n")
	p.f("        if (ins == (byte) 0x20) {\n            times = (short) (buf[ISO7816.OFFSET_P1] & 0xff);\n            k = buf[ISO7816.OFFSET_P2];\n")
	// N = 0 would call nothing and answer 9000 (with a word result, the
	// bytes left in the buffer): at least one call is needed.
	p.f("            if (times == 0) {\n                ISOException.throwIt(ISO7816.SW_WRONG_LENGTH);\n            }\n        }\n")
	p.f("        short d = ISO7816.OFFSET_CDATA;\n")
	for i, e := range p.cls.Exports {
		m := e.Method
		p.f("        if (k == %d) {\n", i)
		if n := paramBytes(m); n > 0 {
			// The data must be exactly the parameters' bytes (checked on
			// P3 before receiving, so a case-2 command is never received
			// on T=0): no parameter is read from stale buffer content.
			p.f("            if ((short) (buf[ISO7816.OFFSET_LC] & 0xff) != %d) {\n", n)
			p.f("                ISOException.throwIt(ISO7816.SW_WRONG_LENGTH);\n            }\n")
			p.f("            short got = apdu.setIncomingAndReceive();\n")
			p.f("            while (got < %d) {\n", n)
			p.f("                short more = apdu.receiveBytes((short) (ISO7816.OFFSET_CDATA + got));\n")
			p.f("                if (more <= 0) {\n                    ISOException.throwIt(ISO7816.SW_WRONG_LENGTH);\n                }\n")
			p.f("                got += more;\n            }\n")
		}
		var args []string
		var bufs []appletBuf
		irArrs := arrayParamsOf(e.Fn)
		ri := 0 // array parameters so far
		for j := 0; j < len(m.Params); j++ {
			v := m.Params[j]
			name := "a" + itoa(j)
			switch v.Kind {
			case KRef:
				ri++
				if v.Arr.Elem == EShort {
					// Word arrays are not exposed through the applet.
					args = append(args, "null")
					continue
				}
				args = append(args, "args")
				off, size := p.arrayArg(m, &j, &args)
				if ri-1 < len(irArrs) {
					bufs = append(bufs, appletBuf{off: off, n: size, written: irArrs[ri-1].Mut})
				}
			case KInt:
				p.f("            int %s = (Util.getShort(buf, d) << 16) | (Util.getShort(buf, (short) (d + 2)) & 0xffff);\n            d += 4;\n", name)
				args = append(args, name)
			default:
				p.f("            short %s = Util.getShort(buf, d);\n            d += 2;\n", name)
				args = append(args, name)
			}
		}
		// The rule on buffers (docs/language.md): every array the export
		// writes and any other array are the same bytes or disjoint.
		for x := range bufs {
			for y := x + 1; y < len(bufs); y++ {
				if bufs[x].written || bufs[y].written {
					p.f("            if (overlap(%s, %s, %s, %s)) {\n                ISOException.throwIt((short) 0x%04x);\n            }\n",
						bufs[x].off, bufs[x].n, bufs[y].off, bufs[y].n, 0x6f00+int(ir.CheckOverlap))
				}
			}
		}
		call := m.Name + "(" + strings.Join(args, ", ") + ")"
		p.f("            for (short t = 0; t < times; t++) {\n")
		switch m.Ret {
		case KShort:
			p.f("                Util.setShort(buf, (short) 0, %s.%s);\n", c, call)
		case KInt:
			p.f("                int r = %s.%s;\n", c, call)
			p.f("                Util.setShort(buf, (short) 0, (short) (r >>> 16));\n")
			p.f("                Util.setShort(buf, (short) 2, (short) r);\n")
		default:
			p.f("                %s.%s;\n", c, call)
		}
		p.f("            }\n")
		switch m.Ret {
		case KShort:
			p.f("            apdu.setOutgoingAndSend((short) 0, (short) 2);\n")
		case KInt:
			p.f("            apdu.setOutgoingAndSend((short) 0, (short) 4);\n")
		}
		p.f("            return;\n        }\n")
	}
	p.f("        ISOException.throwIt(ISO7816.SW_INS_NOT_SUPPORTED);\n")
	p.f("    }\n\n")
	p.f("    /** Whether bytes [p, p+n) and [q, q+m) of the argument area overlap without being the same. */\n")
	p.f("    private static boolean overlap(short p, short n, short q, short m) {\n")
	p.f("        return n > 0 && m > 0 && p < (short) (q + m) && q < (short) (p + n) && !(p == q && n == m);\n")
	p.f("    }\n}\n")
}

// paramBytes is the length of the command data of export m's INS, as the
// applet reads it: 2 bytes per array offset, slice length and short, 4 per
// int (word arrays are not exposed and take none).
func paramBytes(m *Method) int {
	n := 0
	for j := 0; j < len(m.Params); j++ {
		v := m.Params[j]
		switch v.Kind {
		case KRef:
			if v.Arr.Elem == EShort {
				continue
			}
			n += 2
			if v.Arr.Len < 0 {
				n += 2
				j++
			}
			j++
		case KInt:
			n += 4
		default:
			n += 2
		}
	}
	return n
}

// arrayArg reads the offset (and, for a slice, the length) of the byte
// array parameter at *j, which follow it in m.Params, and refuses with
// SW_WRONG_LENGTH (0x6700) an array that is not inside the argument area:
// the library method would otherwise take a length cut to a short, or a
// negative one, as the length of the message.
func (p *javaPrinter) arrayArg(m *Method, j *int, args *[]string) (off, size string) {
	off = "a" + itoa(*j+1)
	p.f("            short %s = Util.getShort(buf, d);\n            d += 2;\n", off)
	*args = append(*args, off)
	if n := m.Params[*j].Arr.Len; n >= 0 {
		size = itoa(n)
	} else {
		size = "a" + itoa(*j+2)
		p.f("            short %s = Util.getShort(buf, d);\n            d += 2;\n", size)
		*args = append(*args, size)
		*j++
	}
	*j++
	neg := ""
	if size[0] == 'a' {
		neg = size + " < 0 || "
	}
	p.f("            if (%s < 0 || %s > %d || %s%s > (short) (%d - %s)) {\n", off, off, argAreaSize, neg, size, argAreaSize, off)
	p.f("                ISOException.throwIt(ISO7816.SW_WRONG_LENGTH);\n            }\n")
	if size[0] != 'a' {
		size = "(short) " + size
	}
	return off, size
}

// appletBuf is a byte array argument of an export as the applet reads it:
// the Java expressions of its offset and length, and whether it is written.
type appletBuf struct {
	off, n  string
	written bool
}

// arrayParamsOf lists the array parameters of an export's IR function (fn
// is an *ir.Function), in order: the source's arrays, then array results.
func arrayParamsOf(fn interface{}) []*ir.Array {
	f, _ := fn.(*ir.Function)
	if f == nil {
		return nil
	}
	var out []*ir.Array
	for _, p := range f.Params {
		if p.Arr != nil {
			out = append(out, p.Arr)
		}
	}
	return out
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
