package driver

import "fmt"

type plainError string

func (e plainError) Error() string { return string(e) }

func errorf(format string, args ...any) error { return plainError(fmt.Sprintf(format, args...)) }
