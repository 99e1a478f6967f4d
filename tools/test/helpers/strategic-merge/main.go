// strategic-merge <deployment.yaml> < patch.json: the Deployment with the patch applied
// the way Envoy Gateway applies an EnvoyProxy's envoyDeployment.patch (StrategicMerge:
// k8s.io/apimachinery's strategicpatch with the apps/v1 Deployment schema, at the
// versions of Envoy Gateway v1.9.1's go.mod). Test helper: make test builds it to check
// our hostPort patch against Deployments the release renders.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"
)

func main() {
	orig, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	patch, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	origJSON, err := yaml.YAMLToJSON(orig)
	if err != nil {
		fail(err)
	}
	out, err := strategicpatch.StrategicMergePatch(origJSON, patch, appsv1.Deployment{})
	if err != nil {
		fail(err)
	}
	// What Envoy Gateway does next: decode into the typed object.
	var d appsv1.Deployment
	if err := json.Unmarshal(out, &d); err != nil {
		fail(err)
	}
	if _, err := os.Stdout.Write(out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
