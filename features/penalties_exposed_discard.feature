# language: zh-TW
功能: 錯打明牌 Discarding from an exposed meld
  誤將已吃碰之門前明牌打出，又無法自手牌取出同一牌恢復原狀：處理以避免改變原有之行牌順序為原則。
  以下各場景中，1 號座先碰了 0 號座的五萬，一巡後又把門前的五萬打出。

  背景:
    假設 罰則：實體桌開局，莊家 0 號座
    當 罰則：0 號座打出 五萬
    而且 罰則：1 號座碰 "五萬五萬五萬"
    而且 罰則：1 號座打出 九筒
    而且 罰則：輪流行牌 3 手，由 2 號座起，不打 "5m"
    而且 罰則：1 號座摸牌並靠張
    而且 罰則：1 號座打出門前明牌 五萬

  @pen.exposed-discard @pen.exposed-discard.1
  場景: 無人吃碰或叫胡：判相公，復原門前搭並改打正確的牌
    # pen.exposed-discard：「舍牌誤將已吃碰之門前明牌打出，又無法自手牌取出同一牌使恢復原狀，是為錯打明牌，
    # 其處理以避免改變原有之行牌順序為原則」
    # pen.exposed-discard.1：「如舍牌已入海無人吃碰或叫胡，除判相公外，應強制將改打正確的牌(即復原該門前搭)接受吃碰銃考驗，
    # 照常行牌。如拿不出正確的牌，則應打出摸來的那張牌。」
    當 罰則：裁判報告 1 號座 "caught"
    那麼 罰則：裁定 "exposed_discard_restored"，條文 "pen.exposed-discard.1"
    而且 罰則：處置含 "dead_hand, restore, must_discard, order_kept"
    而且 罰則：宣讀 "拿不出則打出摸來的牌"

  @pen.exposed-discard.2
  場景: 有人喊碰並亮出對子：判相公，復原改打，賠付亮牌者 1 台，不得吃碰此牌
    # pen.exposed-discard.2：「如舍牌已入海有人吃碰，除判相公外，仍應強制依方式(1)復原改打，
    # 並賠付已喊碰並亮出對子者與欲吃並亮出搭子者各1台，不得吃碰此張錯誤舍牌。」
    當 罰則：2 號座喊碰
    而且 罰則：2 號座亮出 "五萬五萬"
    而且 罰則：裁判報告 1 號座 "caught"
    那麼 罰則：裁定依序為 "exposed_discard_claimed"
    而且 罰則：裁定 "exposed_discard_claimed"，條文 "pen.exposed-discard.2"
    而且 罰則：處置含 "dead_hand, restore, no_claim"
    而且 罰則：此裁定付款為 "1→2 20"
    而且 罰則：各家收付為 "0,-20,20,0"

  @pen.exposed-discard.3
  場景: 有人胡牌：賠付該銃；復原後打出摸來的牌又放銃，再賠付一次，本盤結束
    # pen.exposed-discard.3：「如舍牌已入海有人胡牌，除賠付該銃外，並復原該門前搭強制將摸來的那張牌再打出，如也放銃，
    # 再賠付一次，本盤結束。本盤如因錯打門前牌而結束，如為莊家所為則下莊，否則莊家續莊，本盤不計連莊序。」
    當 罰則：3 號座推倒手牌胡牌，攤牌 "123m46m789p123s789s1z1z5m"
    而且 罰則：1 號座打出 西
    而且 罰則：2 號座推倒手牌胡牌，攤牌 "123m456p789p123s789s3z3z"
    那麼 罰則：裁定依序為 "exposed_discard_won, exposed_discard_won_twice"
    而且 罰則：裁定 "exposed_discard_won"，條文 "pen.exposed-discard.3"
    而且 罰則：此裁定付款為 "1→3 140"
    而且 罰則：裁定 "exposed_discard_won_twice"，條文 "pen.exposed-discard.3"
    而且 罰則：此裁定付款為 "1→2 140"
    而且 罰則：處置含 "hand_ended, dealer_keeps_no_streak"
    而且 罰則：各家收付為 "0,-280,140,140"
    而且 罰則：下一盤莊家 0 號座，連莊 0

  @pen.exposed-discard.3
  場景: 只放銃一次而本盤結束：非莊家所為，莊家續莊不計連莊序
    # pen.exposed-discard.3：「本盤如因錯打門前牌而結束，如為莊家所為則下莊，否則莊家續莊，本盤不計連莊序。」
    當 罰則：3 號座推倒手牌胡牌，攤牌 "123m46m789p123s789s1z1z5m"
    而且 罰則：本盤結束
    那麼 罰則：裁定 "exposed_discard_won"，條文 "pen.exposed-discard.3"
    而且 罰則：處置含 "hand_ended, dealer_keeps_no_streak"
    而且 罰則：各家收付為 "0,-140,0,140"
    而且 罰則：下一盤莊家 0 號座，連莊 0

  @pen.exposed-discard.4 @pen.substitute
  場景: 無人糾正並繼續行牌：其後摸序八張內他人自摸由錯打者代位賠付
    # pen.exposed-discard.4：「如舍牌已入海無人糾正並繼續行牌，錯打者對其後摸序八張以內之他人自摸應負代位賠付之責任.」
    當 罰則：2 號座摸牌並靠張
    而且 罰則：2 號座打出 東
    而且 罰則：3 號座摸牌並靠張
    而且 罰則：3 號座打出 南
    而且 罰則：0 號座摸牌
    而且 罰則：0 號座推倒手牌胡牌，攤牌 "123m456m789m123p789p5s5s"
    那麼 罰則：裁定 "exposed_discard_unnoticed"，條文 "pen.exposed-discard.4"
    而且 罰則：處置不含 "dead_hand"
    而且 罰則：裁定 "substitute_liability"，條文 "pen.substitute"
    而且 罰則：各家收付為 "600,-600,0,0"
    而且 罰則：下一盤莊家 0 號座，連莊 1

  @pen.exposed-discard.1
  場景: 無人吃碰或叫胡而當場發現：於裁判報告時即宣布，照常行牌
    # pen.exposed-discard.1：「如舍牌已入海無人吃碰或叫胡，除判相公外，應強制將改打正確的牌(即復原該門前搭)接受吃碰銃考驗，
    # 照常行牌。」
    當 罰則：裁判報告 1 號座 "caught"
    而且 罰則：1 號座打出 東
    而且 罰則：2 號座摸牌並靠張
    那麼 罰則：逐一送入事件時，裁定 "exposed_discard_restored" 於裁判報告 "caught" 時即宣布
    而且 罰則：處置含 "dead_hand, restore, must_discard, order_kept"

  @pen.exposed-discard.2
  場景: 有人喊碰並亮出對子後發現：於裁判報告時即宣布賠付亮牌者 1 台
    # pen.exposed-discard.2：「如舍牌已入海有人吃碰，除判相公外，仍應強制依方式(1)復原改打，
    # 並賠付已喊碰並亮出對子者與欲吃並亮出搭子者各1台，不得吃碰此張錯誤舍牌。」
    當 罰則：2 號座喊碰
    而且 罰則：2 號座亮出 "五萬五萬"
    而且 罰則：裁判報告 1 號座 "caught"
    而且 罰則：1 號座打出 東
    那麼 罰則：逐一送入事件時，裁定 "exposed_discard_claimed" 於裁判報告 "caught" 時即宣布
    而且 罰則：此裁定付款為 "1→2 20"

  @pen.exposed-discard.4 @pen.substitute
  場景: 無人糾正並繼續行牌：於下家摸牌時即宣布，摸序八張之代位賠付時段自此開始
    # pen.exposed-discard.4：「如舍牌已入海無人糾正並繼續行牌，錯打者對其後摸序八張以內之他人自摸應負代位賠付之責任.」
    當 罰則：2 號座摸牌並靠張
    而且 罰則：2 號座打出 東
    而且 罰則：3 號座摸牌並靠張
    那麼 罰則：逐一送入事件時，裁定 "exposed_discard_unnoticed" 於 2 號座摸牌時即宣布
    而且 罰則：處置不含 "dead_hand"
    而且 罰則：代位賠付時段為 "next_draws"
