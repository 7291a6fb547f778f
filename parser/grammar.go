package parser

import "github.com/alecthomas/participle/v2/lexer"

// The grammar structs below are participle's parse tree. Each carries its
// grammar rule in its struct tags; convert.go turns them into lang's AST.
// Binary operators are one struct per precedence level, loosest first, so the
// tree already encodes precedence (see docs/language.md, "Expressions").

// file: "module" Ident item*
type gFile struct {
	Pos    lexer.Position
	Module string   `"module" @Ident`
	Items  []*gItem `@@*`
}

// item: import | const | fn
type gItem struct {
	Import *gImport `  @@`
	Const  *gConst  `| @@`
	Func   *gFunc   `| @@`
}

// import: "import" Ident
type gImport struct {
	Pos  lexer.Position
	Name string `"import" @Ident`
}

// const: "const" Ident ":" type "=" expr
type gConst struct {
	Pos   lexer.Position
	Name  string `"const" @Ident`
	Type  *gType `":" @@`
	Value *gExpr `"=" @@`
}

// type: "[" expr? "]" type | "(" type ("," type)* ")" | Ident
type gType struct {
	Pos   lexer.Position
	Array *gArrayType `  @@`
	Tuple []*gType    `| "(" @@ ("," @@)* ")"`
	Name  string      `| @Ident`
}

type gArrayType struct {
	Pos  lexer.Position
	Len  *gExpr `"[" @@? "]"`
	Elem *gType `@@`
}

// fn: "export"? "fn" Ident "(" params ")" ("->" type)? ("requires" expr ("," expr)*)* effects? block
type gFunc struct {
	Pos      lexer.Position
	Export   bool      `@"export"?`
	Name     string    `"fn" @Ident`
	Params   []*gParam `"(" (@@ ("," @@)* ","?)? ")"`
	Results  *gType    `("->" @@)?`
	Requires []*gExpr  `("requires" @@ ("," @@)*)*`
	Effects  *gEffects `@@?`
	Body     *gBlock   `@@`
}

// effects: "effects" ("none" | Ident ("," Ident)*)
type gEffects struct {
	Pos   lexer.Position
	None  bool     `"effects" ( @"none"`
	Names []string `          | @Ident ("," @Ident)* )`
}

// param: Ident ":" "mut"? type
type gParam struct {
	Pos  lexer.Position
	Name string `@Ident ":"`
	Mut  bool   `@"mut"?`
	Type *gType `@@`
}

// block: "{" stmt* "}"
type gBlock struct {
	Pos   lexer.Position
	Stmts []*gStmt `"{" @@* "}"`
}

type gStmt struct {
	Pos    lexer.Position
	Let    *gLet    `  @@`
	If     *gIf     `| @@`
	For    *gFor    `| @@`
	Return *gReturn `| @@`
	Absorb *gAbsorb `| @@`
	Block  *gBlock  `| @@`
	Simple *gSimple `| @@`
}

// let: ("let" | "var") ("(" Ident ("," Ident)* ")" | Ident) (":" type)? ("=" expr)?
type gLet struct {
	Pos   lexer.Position
	Kind  string   `@("let" | "var")`
	Tuple []string `( "(" @Ident ("," @Ident)* ")"`
	Name  string   `| @Ident )`
	Type  *gType   `(":" @@)?`
	Value *gExpr   `("=" @@)?`
}

// if: "if" expr block ("else" (if | block))?
type gIf struct {
	Pos    lexer.Position
	Cond   *gExpr  `"if" @@`
	Then   *gBlock `@@`
	ElseIf *gIf    `("else" ( @@`
	Else   *gBlock `         | @@ ))?`
}

// for: "for" Ident ("," Ident)* "in" expr (".." expr)? block
type gFor struct {
	Pos   lexer.Position
	Names []string `"for" @Ident ("," @Ident)* "in"`
	Lo    *gExpr   `@@`
	Hi    *gExpr   `(".." @@)?`
	Body  *gBlock  `@@`
}

// return: "return" (expr ("," expr)*)?
type gReturn struct {
	Pos    lexer.Position
	Values []*gExpr `"return" (@@ ("," @@)*)?`
}

// absorb: "absorb" Ident ("," Ident)* "because" String block
type gAbsorb struct {
	Pos     lexer.Position
	Effects []string `"absorb" @Ident ("," @Ident)*`
	Reason  string   `"because" @String`
	Body    *gBlock  `@@`
}

// simple: expr ("," expr)* (assignop expr)?
type gSimple struct {
	Pos     lexer.Position
	Targets []*gExpr `@@ ("," @@)*`
	Op      string   `( @("=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<<=" | ">>>=" | "<<=" | ">>=")`
	Value   *gExpr   `  @@ )?`
}

// ---------------------------------------------------------------- expressions

// expr: and ("||" and)*
type gExpr struct {
	Pos  lexer.Position
	Left *gAnd    `@@`
	Rest []*gOrOp `@@*`
}

type gOrOp struct {
	Pos   lexer.Position
	Op    string `@"||"`
	Right *gAnd  `@@`
}

// and: cmp ("&&" cmp)*
type gAnd struct {
	Pos  lexer.Position
	Left *gCmp     `@@`
	Rest []*gAndOp `@@*`
}

type gAndOp struct {
	Pos   lexer.Position
	Op    string `@"&&"`
	Right *gCmp  `@@`
}

// cmp: bitor (cmpop bitor)?
type gCmp struct {
	Pos   lexer.Position
	Left  *gBitOr `@@`
	Right *gCmpOp `@@?`
}

type gCmpOp struct {
	Pos   lexer.Position
	Op    string  `@("==" | "!=" | "<=" | ">=" | "<" | ">")`
	Right *gBitOr `@@`
}

// bitor: xor ("|" xor)*
type gBitOr struct {
	Pos  lexer.Position
	Left *gXor     `@@`
	Rest []*gOrBit `@@*`
}

type gOrBit struct {
	Pos   lexer.Position
	Op    string `@"|"`
	Right *gXor  `@@`
}

// xor: bitand ("^" bitand)*
type gXor struct {
	Pos  lexer.Position
	Left *gBitAnd  `@@`
	Rest []*gXorOp `@@*`
}

type gXorOp struct {
	Pos   lexer.Position
	Op    string   `@"^"`
	Right *gBitAnd `@@`
}

// bitand: shift ("&" shift)*
type gBitAnd struct {
	Pos  lexer.Position
	Left *gShift    `@@`
	Rest []*gAndBit `@@*`
}

type gAndBit struct {
	Pos   lexer.Position
	Op    string  `@"&"`
	Right *gShift `@@`
}

// shift: add (("<<<" | ">>>" | "<<" | ">>") add)*
type gShift struct {
	Pos  lexer.Position
	Left *gAdd       `@@`
	Rest []*gShiftOp `@@*`
}

type gShiftOp struct {
	Pos   lexer.Position
	Op    string `@("<<<" | ">>>" | "<<" | ">>")`
	Right *gAdd  `@@`
}

// add: mul (("+" | "-") mul)*
type gAdd struct {
	Pos  lexer.Position
	Left *gMul     `@@`
	Rest []*gAddOp `@@*`
}

type gAddOp struct {
	Pos   lexer.Position
	Op    string `@("+" | "-")`
	Right *gMul  `@@`
}

// mul: cast (("*" | "/" | "%") cast)*
type gMul struct {
	Pos  lexer.Position
	Left *gCast    `@@`
	Rest []*gMulOp `@@*`
}

type gMulOp struct {
	Pos   lexer.Position
	Op    string `@("*" | "/" | "%")`
	Right *gCast `@@`
}

// cast: unary ("as" type)*
type gCast struct {
	Pos  lexer.Position
	X    *gUnary  `@@`
	Cast []*gAsOp `@@*`
}

type gAsOp struct {
	Pos lexer.Position
	To  *gType `"as" @@`
}

// unary: ("-" | "~" | "!") unary | postfix
type gUnary struct {
	Pos     lexer.Position
	Op      string    `( @("-" | "~" | "!")`
	X       *gUnary   `  @@ )`
	Postfix *gPostfix `| @@`
}

// postfix: primary ("[" expr "]")*
type gPostfix struct {
	Pos     lexer.Position
	Prim    *gPrimary `@@`
	Indexes []*gIndex `@@*`
}

type gIndex struct {
	Pos   lexer.Position
	Index *gExpr `"[" @@ "]"`
}

// primary: Int | "true" | "false" | "[" exprs "]" | "(" expr ")" | Ident ("." Ident)? args?
type gPrimary struct {
	Pos   lexer.Position
	Int   *string `  @Int`
	Bool  *string `| @("true" | "false")`
	Array *gArray `| @@`
	Paren *gExpr  `| "(" @@ ")"`
	Name  *gName  `| @@`
}

type gArray struct {
	Pos   lexer.Position
	Elems []*gExpr `"[" (@@ ("," @@)* ","?)? "]"`
}

type gName struct {
	Pos  lexer.Position
	Name string `@Ident`
	Sub  string `("." @Ident)?`
	Call *gArgs `@@?`
}

type gArgs struct {
	Pos  lexer.Position
	Open string   `@"("`
	Args []*gExpr `(@@ ("," @@)* ","?)? ")"`
}
