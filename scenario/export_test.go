package scenario

// SetTaskHook makes f see every task a virtual user picks; nil removes it.
func SetTaskHook(f func(scenario string, task int)) { testHookTask = f }
