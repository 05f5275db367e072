package native

// This file says why a device runs none of a kernel's artifacts.

import (
	"fmt"
	"strings"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Refusal is the error of a device of info, of a driver of prefix, that
// runs none of k's artifacts: each of its backend's names what it lacks,
// another target than the device's native one, or else need(a) ("sm_80",
// an ISA), listed after verb ("need").
func Refusal(prefix string, info driver.Info, k *driver.Kernel, verb string, need func(a *schema.Artifact) string) error {
	var needs []string
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		switch {
		case a.Backend != info.Backend:
		case a.Target != info.Native:
			needs = append(needs, fmt.Sprintf("target %s (the driver runs %s)", a.Target, info.Native))
		default:
			needs = append(needs, need(a))
		}
	}
	if len(needs) == 0 {
		return fmt.Errorf("%s: kernel %s: no %s artifact", prefix, k.Name, info.Native)
	}
	return fmt.Errorf("%s: kernel %s: its %s artifacts %s %s; the device %s is %s",
		prefix, k.Name, info.Native, verb, strings.Join(needs, ", "), info.Name, info.ISA)
}
