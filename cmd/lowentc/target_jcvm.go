package main

import (
	"github.com/lowent/lowentc/backend/jcvm"
)

func init() {
	treeEmitters["jcvm/javacard"] = jcvm.JavaCardTree
	treeMarkers["jcvm/javacard"] = jcvm.TreeMarker
	validateAID = func(v string) error {
		_, err := jcvm.ParseAIDs(v)
		return err
	}
}
