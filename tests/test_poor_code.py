"""Code that cannot explain a mechanism (``poorcode.answers_poorly``): a data migration.

Maybe (a dev app of ``bench/data``) was asked how the balances of earlier days are worked out for a connected
account; the answer opened on ``app/data_migrations/balance_component_migrator.rb``, a one-off SQL rewrite of the
stored balances whose words ("balance", "account") match, instead of the balance calculators. The fixture is that
file's shape.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.poorcode import answers_poorly
from codeqa.records import Chunk

MIGRATOR = """class BalanceComponentMigrator
  def self.run
    ActiveRecord::Base.transaction do
      ActiveRecord::Base.connection.execute <<~SQL
        UPDATE balances
        SET cash_balance = a.cash_balance
        FROM accounts a
        WHERE a.id = balances.account_id
      SQL
    end
  end
end"""

CALCULATOR = """class Balance::ForwardCalculator < Balance::BaseCalculator
  def calculate
    Rails.logger.tagged("Balance::ForwardCalculator") do
      calc_start_date.upto(calc_end_date).map do |date|
        build_balance(date: date, cash_balance: end_cash_balance)
      end
    end
  end
end"""


def chunk(path: str, text: str) -> Chunk:
    return Chunk(path, "ruby", 1, 1 + text.count("\n"), text, "", "class", "")


def test_a_data_migration_answers_poorly_wherever_the_app_keeps_it() -> None:
    assert answers_poorly(chunk("app/data_migrations/balance_component_migrator.rb", MIGRATOR))
    assert answers_poorly(chunk("db/data/20240101000000_backfill_balances.rb", MIGRATOR))
    assert answers_poorly(chunk("lib/datamigrations/backfill.rb", MIGRATOR))


def test_the_apps_own_rules_beside_it_do_not() -> None:
    assert not answers_poorly(chunk("app/models/balance/forward_calculator.rb", CALCULATOR))
    assert not answers_poorly(chunk("app/models/data/migrator_settings.rb", CALCULATOR))
    assert not answers_poorly(chunk("app/services/database/migrator.rb", CALCULATOR))
