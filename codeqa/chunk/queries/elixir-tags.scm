; Elixir: every definition is a call (`defmodule`, `def`, …); its name is in the first argument

; -- definitions -------------------------------------------------------------------------------------------------
(call
  target: (identifier) @_def (#any-of? @_def "defmodule" "defprotocol")
  (arguments . (alias) @name.definition.module @namespace))
(call
  target: (identifier) @_def (#any-of? @_def "def" "defp" "defguard" "defguardp" "defdelegate")
  (arguments . [(identifier) @name.definition.function
                (call target: (identifier) @name.definition.function)
                (binary_operator left: (call target: (identifier) @name.definition.function))]))
(call
  target: (identifier) @_def (#any-of? @_def "defmacro" "defmacrop")
  (arguments . [(identifier) @name.definition.macro
                (call target: (identifier) @name.definition.macro)
                (binary_operator left: (call target: (identifier) @name.definition.macro))]))
; `@type t :: …`, `@callback run(job) :: …`
(unary_operator
  operand: (call
    target: (identifier) @_attr (#any-of? @_attr "type" "typep" "opaque")
    (arguments . (binary_operator left: [(identifier) @name.definition.type
                                         (call target: (identifier) @name.definition.type)]))))
(unary_operator
  operand: (call
    target: (identifier) @_attr (#any-of? @_attr "callback" "macrocallback")
    (arguments . (binary_operator left: (call target: (identifier) @name.definition.function)))))

; -- references --------------------------------------------------------------------------------------------------
; `defimpl Inspect, for: Job` implements a protocol for a module: both are used here
(call
  target: (identifier) @_def (#eq? @_def "defimpl")
  (arguments . (alias) @name.reference.class))
; a call, but not the definition and directive keywords nor a module attribute (`@doc`, `@spec`)
(call
  target: (identifier) @name.reference.call
  (#not-match? @name.reference.call
    "^(def|defp|defmacrop?|defguardp?|defdelegate|defmodule|defprotocol|defimpl|defstruct|defexception|alias|import|require|use|doc|moduledoc|typedoc|spec|type|typep|opaque|callback|macrocallback|impl|behaviour)$"))
(call target: (dot right: (identifier) @name.reference.call))
(alias) @name.reference.class
((identifier) @name.reference.identifier (#not-match? @name.reference.identifier
  "^(def|defp|defmacrop?|defguardp?|defdelegate|defmodule|defprotocol|defimpl|defstruct|defexception|alias|import|require|use|doc|moduledoc|typedoc|spec|type|typep|opaque|callback|macrocallback|impl|behaviour)$"))

; -- imports -----------------------------------------------------------------------------------------------------
; `alias Oban.Config`, `import Ecto.Query`, `use GenServer`; `alias Oban.{Config, Job}` imports each of them
(call
  target: (identifier) @_verb (#any-of? @_verb "alias" "import" "require" "use")
  (arguments . (alias) @import))
(call
  target: (identifier) @_verb (#any-of? @_verb "alias" "import" "require" "use")
  (arguments . (dot left: (alias) @import right: (tuple (alias) @import.name))))
