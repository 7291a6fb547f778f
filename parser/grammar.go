package parser

import "github.com/alecthomas/participle/v2/lexer"

// The grammar structs below are participle's parse tree. Each carries its
// grammar rule in its struct tags; convert.go turns them into lang's AST.
// Binary operators are one struct per precedence level, loosest first, so the
// tree already encodes precedence (see docs/language.md, "Expressions").

// file: "module" Ident item*
type gFile struct {
	Pos    lexer.Position
	Module string   `parser:"\"module\" @Ident"`
	Items  []*gItem `parser:"@@*"`
}

// item: import | const | fn
type gItem struct {
	Import *gImport `parser:"  @@"`
	Const  *gConst  `parser:"| @@"`
	Func   *gFunc   `parser:"| @@"`
}

// import: "import" Ident
type gImport struct {
	Pos  lexer.Position
	Name string `parser:"\"import\" @Ident"`
}

// const: "const" Ident ":" type "=" expr
type gConst struct {
	Pos   lexer.Position
	Name  string `parser:"\"const\" @Ident"`
	Type  *gType `parser:"\":\" @@"`
	Value *gExpr `parser:"\"=\" @@"`
}

// type: "[" expr? "]" type | "(" type ("," type)* ")" | Ident
type gType struct {
	Pos   lexer.Position
	Array *gArrayType `parser:"  @@"`
	Tuple []*gType    `parser:"| \"(\" @@ (\",\" @@)* \")\""`
	Name  string      `parser:"| @Ident"`
}

type gArrayType struct {
	Pos  lexer.Position
	Len  *gExpr `parser:"\"[\" @@? \"]\""`
	Elem *gType `parser:"@@"`
}

// fn: "export"? "fn" Ident "(" params ")" ("->" type)? ("requires" expr ("," expr)*)* effects? block
type gFunc struct {
	Pos      lexer.Position
	Export   bool      `parser:"@\"export\"?"`
	Name     string    `parser:"\"fn\" @Ident"`
	Params   []*gParam `parser:"\"(\" (@@ (\",\" @@)* \",\"?)? \")\""`
	Results  *gType    `parser:"(\"->\" @@)?"`
	Requires []*gExpr  `parser:"(\"requires\" @@ (\",\" @@)*)*"`
	Effects  *gEffects `parser:"@@?"`
	Body     *gBlock   `parser:"@@"`
}

// effects: "effects" ("none" | Ident ("," Ident)*)
type gEffects struct {
	Pos   lexer.Position
	None  bool     `parser:"\"effects\" ( @\"none\""`
	Names []string `parser:"          | @Ident (\",\" @Ident)* )"`
}

// param: Ident ":" "mut"? type
type gParam struct {
	Pos  lexer.Position
	Name string `parser:"@Ident \":\""`
	Mut  bool   `parser:"@\"mut\"?"`
	Type *gType `parser:"@@"`
}

// block: "{" stmt* "}"
type gBlock struct {
	Pos   lexer.Position
	Stmts []*gStmt `parser:"\"{\" @@* \"}\""`
}

type gStmt struct {
	Pos    lexer.Position
	Let    *gLet    `parser:"  @@"`
	If     *gIf     `parser:"| @@"`
	For    *gFor    `parser:"| @@"`
	Return *gReturn `parser:"| @@"`
	Absorb *gAbsorb `parser:"| @@"`
	Block  *gBlock  `parser:"| @@"`
	Simple *gSimple `parser:"| @@"`
}

// let: ("let" | "var") ("(" Ident ("," Ident)* ")" | Ident) (":" type)? ("=" expr)?
type gLet struct {
	Pos   lexer.Position
	Kind  string   `parser:"@(\"let\" | \"var\")"`
	Tuple []string `parser:"( \"(\" @Ident (\",\" @Ident)* \")\""`
	Name  string   `parser:"| @Ident )"`
	Type  *gType   `parser:"(\":\" @@)?"`
	Value *gExpr   `parser:"(\"=\" @@)?"`
}

// if: "if" expr block ("else" (if | block))?
type gIf struct {
	Pos    lexer.Position
	Cond   *gExpr  `parser:"\"if\" @@"`
	Then   *gBlock `parser:"@@"`
	ElseIf *gIf    `parser:"(\"else\" ( @@"`
	Else   *gBlock `parser:"         | @@ ))?"`
}

// for: "for" Ident ("," Ident)* "in" expr (".." expr)? block
type gFor struct {
	Pos   lexer.Position
	Names []string `parser:"\"for\" @Ident (\",\" @Ident)* \"in\""`
	Lo    *gExpr   `parser:"@@"`
	Hi    *gExpr   `parser:"(\"..\" @@)?"`
	Body  *gBlock  `parser:"@@"`
}

// return: "return" (expr ("," expr)*)?
type gReturn struct {
	Pos    lexer.Position
	Values []*gExpr `parser:"\"return\" (@@ (\",\" @@)*)?"`
}

// absorb: "absorb" Ident ("," Ident)* "because" String block
type gAbsorb struct {
	Pos     lexer.Position
	Effects []string `parser:"\"absorb\" @Ident (\",\" @Ident)*"`
	Reason  string   `parser:"\"because\" @String"`
	Body    *gBlock  `parser:"@@"`
}

// simple: expr ("," expr)* (assignop expr ("," expr)*)?
type gSimple struct {
	Pos     lexer.Position
	Targets []*gExpr `parser:"@@ (\",\" @@)*"`
	Op      string   `parser:"( @(\"=\" | \"+=\" | \"-=\" | \"*=\" | \"/=\" | \"%=\" | \"&=\" | \"|=\" | \"^=\" | \"<<<=\" | \">>>=\" | \"<<=\" | \">>=\")"`
	Values  []*gExpr `parser:"  @@ (\",\" @@)* )?"`
}

// ---------------------------------------------------------------- expressions

// expr: and ("||" and)*
type gExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position // just after its last token
	Left   *gAnd          `parser:"@@"`
	Rest   []*gOrOp       `parser:"@@*"`
}

type gOrOp struct {
	Pos   lexer.Position
	Op    string `parser:"@\"||\""`
	Right *gAnd  `parser:"@@"`
}

// and: cmp ("&&" cmp)*
type gAnd struct {
	Pos  lexer.Position
	Left *gCmp     `parser:"@@"`
	Rest []*gAndOp `parser:"@@*"`
}

type gAndOp struct {
	Pos   lexer.Position
	Op    string `parser:"@\"&&\""`
	Right *gCmp  `parser:"@@"`
}

// cmp: bitor (cmpop bitor)?
type gCmp struct {
	Pos   lexer.Position
	Left  *gBitOr `parser:"@@"`
	Right *gCmpOp `parser:"@@?"`
}

type gCmpOp struct {
	Pos   lexer.Position
	Op    string  `parser:"@(\"==\" | \"!=\" | \"<=\" | \">=\" | \"<\" | \">\")"`
	Right *gBitOr `parser:"@@"`
}

// bitor: xor ("|" xor)*
type gBitOr struct {
	Pos  lexer.Position
	Left *gXor     `parser:"@@"`
	Rest []*gOrBit `parser:"@@*"`
}

type gOrBit struct {
	Pos   lexer.Position
	Op    string `parser:"@\"|\""`
	Right *gXor  `parser:"@@"`
}

// xor: bitand ("^" bitand)*
type gXor struct {
	Pos  lexer.Position
	Left *gBitAnd  `parser:"@@"`
	Rest []*gXorOp `parser:"@@*"`
}

type gXorOp struct {
	Pos   lexer.Position
	Op    string   `parser:"@\"^\""`
	Right *gBitAnd `parser:"@@"`
}

// bitand: shift ("&" shift)*
type gBitAnd struct {
	Pos  lexer.Position
	Left *gShift    `parser:"@@"`
	Rest []*gAndBit `parser:"@@*"`
}

type gAndBit struct {
	Pos   lexer.Position
	Op    string  `parser:"@\"&\""`
	Right *gShift `parser:"@@"`
}

// shift: add (("<<<" | ">>>" | "<<" | ">>") add)*
type gShift struct {
	Pos  lexer.Position
	Left *gAdd       `parser:"@@"`
	Rest []*gShiftOp `parser:"@@*"`
}

type gShiftOp struct {
	Pos   lexer.Position
	Op    string `parser:"@(\"<<<\" | \">>>\" | \"<<\" | \">>\")"`
	Right *gAdd  `parser:"@@"`
}

// add: mul (("+" | "-") mul)*
type gAdd struct {
	Pos  lexer.Position
	Left *gMul     `parser:"@@"`
	Rest []*gAddOp `parser:"@@*"`
}

type gAddOp struct {
	Pos   lexer.Position
	Op    string `parser:"@(\"+\" | \"-\")"`
	Right *gMul  `parser:"@@"`
}

// mul: cast (("*" | "/" | "%") cast)*
type gMul struct {
	Pos  lexer.Position
	Left *gCast    `parser:"@@"`
	Rest []*gMulOp `parser:"@@*"`
}

type gMulOp struct {
	Pos   lexer.Position
	Op    string `parser:"@(\"*\" | \"/\" | \"%\")"`
	Right *gCast `parser:"@@"`
}

// cast: unary ("as" type)*
type gCast struct {
	Pos  lexer.Position
	X    *gUnary  `parser:"@@"`
	Cast []*gAsOp `parser:"@@*"`
}

type gAsOp struct {
	Pos lexer.Position
	To  *gType `parser:"\"as\" @@"`
}

// unary: ("-" | "~" | "!") unary | postfix
type gUnary struct {
	Pos     lexer.Position
	Op      string    `parser:"( @(\"-\" | \"~\" | \"!\")"`
	X       *gUnary   `parser:"  @@ )"`
	Postfix *gPostfix `parser:"| @@"`
}

// postfix: primary ("[" expr (".." expr)? "]")*
type gPostfix struct {
	Pos     lexer.Position
	Prim    *gPrimary `parser:"@@"`
	Indexes []*gIndex `parser:"@@*"`
}

type gIndex struct {
	Pos   lexer.Position
	Index *gExpr `parser:"\"[\" @@"`
	Hi    *gExpr `parser:"(\"..\" @@)? \"]\""`
}

// primary: Int | "true" | "false" | "have" Ident | "[" exprs "]" | "(" expr ")" | Ident ("." Ident)? args?
type gPrimary struct {
	Pos   lexer.Position
	Int   *string `parser:"  @Int"`
	Bool  *string `parser:"| @(\"true\" | \"false\")"`
	Have  *string `parser:"| \"have\" @Ident"`
	Array *gArray `parser:"| @@"`
	Paren *gExpr  `parser:"| \"(\" @@ \")\""`
	Name  *gName  `parser:"| @@"`
}

type gArray struct {
	Pos   lexer.Position
	Elems []*gExpr `parser:"\"[\" (@@ (\",\" @@)* \",\"?)? \"]\""`
}

type gName struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
	Sub  string `parser:"(\".\" @Ident)?"`
	Call *gArgs `parser:"@@?"`
}

type gArgs struct {
	Pos  lexer.Position
	Open string   `parser:"@\"(\""`
	Args []*gExpr `parser:"(@@ (\",\" @@)* \",\"?)? \")\""`
}
